// `sessionctl`: every command, without the PulseAudio backend, so that a one-shot command maps
// none of libpulse's libraries. Commands that need the backend (a daemon or a scenario on a
// real server, `policy check` of pulse.json) run `sessionctl-pulse` in this process's place
// (docs/modules.md "What sessionctl links").
import SessionctlCommands

SessionctlMain.main()
