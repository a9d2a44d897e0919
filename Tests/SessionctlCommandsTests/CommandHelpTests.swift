import ArgumentParser
import AudioSessionScenario
import Testing

@testable import SessionctlCommands

// docs/style.md §3.8: exact help strings, in-process, at 80 columns (docs/contract.md Commands).
@Suite struct CommandHelpTests {
  @Test(
    "scenario run's help says what a scenario is and how it runs (docs/contract.md Scenario files)")
  func help_scenarioRun_isExact() {
    #expect(
      Sessionctl.helpMessage(for: Sessionctl.ScenarioCommand.Run.self, columns: 80) == """
        OVERVIEW: Replays a scenario file and prints its transcript.

        A scenario file (YAML, or JSON) has a 'name' and 'steps', and optionally a
        'description', the 'devices' present at start and a policy 'profile'. Each step
        is a sessionctl command line; when its first word is not a command it names a
        session: 'music activate' is 'activate --session music'.

        Every step is parsed before any runs: a malformed file runs nothing and exits
        1. A step that fails (an AVAudioSession error) is part of the transcript; the
        scenario goes on and exits 0. The profile is --profile, else the file's
        'profile:', else the policy's default.

        With --backend pulse the steps run against a PulseAudio server: devices are
        null sinks and sources, the call is a phone-role stream, players are real
        streams. The server is the one PULSE_SERVER or XDG_RUNTIME_DIR names, or, with
        --spawn-server, a private one started for the run (needed for 'simulate
        server-restart').

        On the simulated backend a scenario can also act out other programs ('simulate
        program'), the user ('simulate user') and the daemon's restart ('simulate
        daemon restart'), and ask what is heard ('heard'): it then runs as the daemon
        does, and the transcript shows the commands sent to the programs' players and
        what the daemon did to their streams (docs/contract.md "Desktop steps").

        With --explain every notification and every error says why: the policy file and
        key path of the rule or table cell that decided it (or, for AVAudioSession's
        fixed behaviour, the section of docs/avaudiosession.md), the profile, the
        profile switch when one applied, and the step that triggered it; in JSON as
        "because", in text as an indented line.

        With --timeline OUT.svg the run also draws the scenario: one lane per session
        across the steps, with bands for active, playing, interrupted, ducked and
        muted, the output route where it changes, each notification as a mark (hover
        for its text and reason), and the steps along the axis. The SVG is
        self-contained (no script, no external font).

        USAGE: sessionctl scenario run <file> [--backend <backend>] [--spawn-server] [--server-kind <server-kind>] [--json] [--explain] [--timeline <out.svg>] [--policies <dir>] [--profile <name>]

        ARGUMENTS:
          <file>                  The scenario file (YAML, or JSON).

        OPTIONS:
          --backend <backend>     The backend to replay on. (values: simulated, pulse;
                                  default: simulated)
          --spawn-server          With --backend pulse: start a private server for the
                                  run, stopped after it.
          --server-kind <server-kind>
                                  The private server --spawn-server starts. (values:
                                  pulseaudio, pipewire; default: pulseaudio)
          --json                  Print the transcript as JSON lines, one object per
                                  line.
          --explain               Say why each notification was posted and each error
                                  returned.
          --timeline <out.svg>    Also draw the scenario as a timeline, an SVG file.
          --policies <dir>        The policy directory to load.
                Default: $AUDIOSESSION_POLICIES, else
                $XDG_CONFIG_HOME/audiosession/policies
                (~/.config/audiosession/policies), else the directory installed with
                sessionctl (../share/audiosession/policies from its bin/), else, for a
                build run from its source checkout, that checkout's policies/. The
                current directory is not searched.
          --profile <name>        The policy profile to apply (see 'sessionctl policy
                                  show').
          --version               Show the version.
          -h, --help              Show help information.

        """)
  }

  @Test(
    "set's help lists the Swift names of categories, modes and options (docs/contract.md Commands)")
  func help_set_listsSwiftNames() {
    #expect(
      Sessionctl.helpMessage(for: Sessionctl.SetCategory.self, columns: 80) == """
        OVERVIEW: Sets a session's category, mode and options, as
        setCategory(_:mode:policy:options:) does.

        Without --mode the session keeps its mode (spec §3.1). Options replace the
        previous ones; options a category or option implies (ambient: mixWithOthers;
        duckOthers: mixWithOthers) are added by the session. --policy longFormAudio or
        longFormVideo (playback, modes default, moviePlayback or spokenAudio, no
        options) makes the session share one output with every session of the same
        policy; independent is the system's and refused; without --policy the policy is
        default (docs/avaudiosession.md §13.3).

        USAGE: sessionctl set <category> [--mode <mode>] [--options <option,…>] [--policy <policy>] [--session <name>] [--socket <path>] [--timeout <seconds>]

        ARGUMENTS:
          <category>              The category, by its Swift name. (values: ambient,
                                  soloAmbient, playback, record, playAndRecord,
                                  audioProcessing, multiRoute)

        OPTIONS:
          --mode <mode>           The mode, by its Swift name. (values: default,
                                  voiceChat, gameChat, videoRecording, measurement,
                                  moviePlayback, videoChat, spokenAudio, voicePrompt,
                                  shortFormVideo, dualRoute)
          --options <option,…>    Category options, comma-separated (allowBluetooth is
                                  accepted for allowBluetoothHFP). (values:
                                  mixWithOthers, duckOthers, allowBluetoothHFP,
                                  defaultToSpeaker,
                                  interruptSpokenAudioAndMixWithOthers,
                                  allowBluetoothA2DP, allowAirPlay,
                                  overrideMutedMicrophoneInterruption, farFieldInput,
                                  bluetoothHighQualityRecording)
          --policy <policy>       The route-sharing policy, by its Swift name. (values:
                                  default, longFormAudio, independent, longFormVideo)
          --session <name>        The session to act on; it is created, unconfigured,
                                  on first mention. (default: default)
          --socket <path>         The daemon's socket.
                Default: $AUDIOSESSION_SOCKET, else
                $XDG_RUNTIME_DIR/audiosession/daemon.sock.
          --timeout <seconds>     How long to wait for the daemon's answer, in seconds.
                Default: $AUDIOSESSION_TIMEOUT, else 5.
          --version               Show the version.
          -h, --help              Show help information.

        """)
  }
}
