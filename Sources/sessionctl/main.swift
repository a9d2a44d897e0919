// `sessionctl`: every command, without the backends or the daemon, so that a one-shot command
// maps none of libpulse's libraries. `sessionctl daemon` runs the daemon program, `audiosessiond`,
// in this process's place; so do the commands that need the PulseAudio backend (a scenario on a
// real server, `policy check` of pulse.json) (docs/modules.md "What sessionctl links").
import SessionctlCommands

SessionctlMain.main()
