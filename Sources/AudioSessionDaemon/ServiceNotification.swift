import CSDNotify

/// What the daemon tells the service manager that started it (systemd's `Type=notify`): that it
/// is ready, once it serves its socket, and in a few words what it is doing meanwhile (`systemctl
/// --user status audiosession` shows that as "Status:").
///
/// Each call is one datagram to `$NOTIFY_SOCKET`; without that variable (a daemon started by
/// hand or by a live command) it does nothing. The corresponding C function is `sd_notify`.
public enum ServiceNotification {
  /// Tells the service manager the daemon serves (`READY=1`), with a status line.
  public static func ready(status: String) {
    send("READY=1\nSTATUS=" + oneLine(status))
  }

  /// A status line while the daemon is not ready yet, or is stopping (`STATUS=…`).
  public static func status(_ text: String) {
    send("STATUS=" + oneLine(text))
  }

  /// Tells the service manager the daemon is stopping (`STOPPING=1`).
  public static func stopping() {
    send("STOPPING=1")
  }

  /// Sends one notification; `unset_environment` 0 keeps `NOTIFY_SOCKET` for the next.
  /// Returns whether it was sent (false: not under a service manager, or it failed).
  @discardableResult
  static func send(_ message: String) -> Bool {
    sd_notify(0, message) > 0
  }

  /// A status is one line: a line break would start another assignment.
  static func oneLine(_ text: String) -> String {
    String(text.map { $0 == "\n" ? " " : $0 })
  }
}
