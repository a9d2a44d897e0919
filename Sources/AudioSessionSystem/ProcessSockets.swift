#if canImport(Glibc)
  import Glibc
#endif

/// What the kernel says of a process, beyond what the process claims of itself: its program
/// (`/proc/PID/exe`), the sockets it holds open (`/proc/PID/fd`), and which sockets are
/// connected to a listening Unix socket (the kernel's socket diagnostics, `NETLINK_SOCK_DIAG`:
/// what `ss -xp` reads). A media server's client names its own process in a property any client
/// may set (`application.process.id`); these are what the backend checks that claim against
/// (docs/apps.md "Sessions of other programs").
public enum ProcessSockets {
  /// The file name of the program `pid` runs (the last part of `/proc/PID/exe`, without the
  /// kernel's ` (deleted)` for a program replaced on disk since it started), or nil when the
  /// process is gone or not this user's.
  public static func executableName(of pid: Int32) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    var path = String(
      decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }

  /// The inodes of the sockets `pid` holds open (its `/proc/PID/fd` links `socket:[N]`), or nil
  /// when they cannot be read (the process is gone or not this user's).
  public static func socketInodes(of pid: Int32) -> Set<UInt64>? {
    let folder = "/proc/\(pid)/fd"
    guard let directory = opendir(folder) else { return nil }
    defer { closedir(directory) }
    var inodes: Set<UInt64> = []
    var buffer = [CChar](repeating: 0, count: 64)
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard name.first?.isNumber == true else { continue }
      let count = readlink(folder + "/" + name, &buffer, buffer.count - 1)
      guard count > 0 else { continue }
      let target = String(
        decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      guard target.hasPrefix("socket:["), target.hasSuffix("]"),
        let inode = UInt64(target.dropFirst("socket:[".count).dropLast())
      else { continue }
      inodes.insert(inode)
    }
    return inodes
  }

  /// The inodes of the client ends of the connections to the Unix socket listening at `path`
  /// (the peers of the connected sockets that carry its address), or nil when the kernel does
  /// not answer (no socket diagnostics).
  public static func clientsConnected(to path: String) -> Set<UInt64>? {
    let netlink = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 4)
    guard netlink >= 0 else { return nil }
    defer { close(netlink) }
    // nlmsghdr (16 bytes) + unix_diag_req (24): SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP,
    // every state, with each socket's name and peer.
    var request: [UInt8] = []
    func append<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value) { request += $0 }
    }
    append(UInt32(40))  // nlmsg_len
    append(UInt16(20))  // SOCK_DIAG_BY_FAMILY
    append(UInt16(0x301))  // NLM_F_REQUEST | NLM_F_DUMP
    append(UInt32(1))  // nlmsg_seq
    append(UInt32(0))  // nlmsg_pid
    append(UInt8(AF_UNIX))  // sdiag_family
    append(UInt8(0))  // sdiag_protocol
    append(UInt16(0))  // pad
    append(UInt32.max)  // udiag_states: all
    append(UInt32(0))  // udiag_ino
    append(UInt32(1 | 4))  // UDIAG_SHOW_NAME | UDIAG_SHOW_PEER
    append(UInt32.max)  // udiag_cookie: none
    append(UInt32.max)
    guard request.withUnsafeBytes({ send(netlink, $0.baseAddress, $0.count, 0) }) == 40 else {
      return nil
    }
    let wanted = Array(path.utf8)
    var clients: Set<UInt64> = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(netlink, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { return nil }
      var offset = 0
      while offset + 16 <= count {
        let length = Int(read32(buffer, offset))
        let type = read16(buffer, offset + 4)
        guard length >= 16, offset + length <= count else { return nil }
        if type == 3 { return clients }  // NLMSG_DONE
        if type == 2 { return nil }  // NLMSG_ERROR
        // unix_diag_msg (16 bytes), then attributes: UNIX_DIAG_NAME (0), UNIX_DIAG_PEER (2).
        var name: ArraySlice<UInt8>?
        var peer: UInt32?
        var attribute = offset + 32
        while attribute + 4 <= offset + length {
          let size = Int(read16(buffer, attribute))
          let kind = read16(buffer, attribute + 2)
          guard size >= 4, attribute + size <= offset + length else { break }
          if kind == 0 { name = buffer[(attribute + 4)..<(attribute + size)] }
          if kind == 2, size >= 8 { peer = read32(buffer, attribute + 4) }
          attribute += (size + 3) & ~3
        }
        if let name, let peer, peer != 0, Array(name.prefix { $0 != 0 }) == wanted {
          clients.insert(UInt64(peer))
        }
        offset += (length + 3) & ~3
      }
    }
  }

  // Netlink's numbers are in the host's byte order.
  private static func read16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
    bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt16.self) }
  }

  private static func read32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }
  }
}
