// `sessionctl-pulse`: sessionctl with the PulseAudio backend linked in. `sessionctl` runs it in
// its own place for the commands that need the backend (docs/modules.md "What sessionctl links").
import SessionctlCommands
import SessionctlPulse

PulseLink.support = LivePulseSupport()
SessionctlMain.main()
