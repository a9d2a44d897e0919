import AudioSessionSystem
import AudioSessionTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// docs/protocol.md "The socket": the daemon's files are made only in a folder no other user can
/// write to, a symbolic link planted there is never followed, and its files are 0600.
///
/// Another user's folder is made by chowning one to uid 65534 (nobody), which needs root (as
/// `make test` runs in CI); those tests record an issue when not run as root.
@Suite struct PrivateFolderTests {
  static let nobody = OtherUser.nobody

  static func mode(_ path: String) -> UInt32 { OtherUser.mode(path) }

  static func owner(_ path: String) -> uid_t {
    var info = stat()
    lstat(path, &info)
    return info.st_uid
  }

  @Test("a missing folder is made 0700, its missing parents too")
  func missingFolder_isMade0700() throws {
    let base = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let folder = base + "/a/b"
    #expect(try PrivateFolder.prepare(folder, fixMode: false) == .created)
    #expect(Self.mode(base + "/a") == 0o700)
    #expect(Self.mode(folder) == 0o700)
    #expect(try PrivateFolder.prepare(folder, fixMode: false) == .safe)
  }

  @Test("a 0777 folder of another user is refused, naming its owner, mode fix or not")
  func otherUsersOpenFolder_isRefused() throws {
    try #require(getuid() == 0, "chowning a folder to another user needs root")
    let base = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let folder = base + "/planted"
    mkdir(folder, 0o777)
    chmod(folder, 0o777)
    chown(folder, Self.nobody, Self.nobody)
    for fixMode in [false, true] {
      let error = #expect(throws: PrivateFolder.Unsafe.self) {
        try PrivateFolder.prepare(folder, fixMode: fixMode)
      }
      #expect(error?.path == folder)
      #expect(error?.reason.hasPrefix("it belongs to uid 65534, not to this user") == true)
    }
    // Left as it was: it is not ours to change.
    #expect(Self.mode(folder) == 0o777)
    #expect(Self.owner(folder) == Self.nobody)
  }

  @Test(
    "this user's folder that others may write to is refused with what to do, or fixed to 0700 when it is the daemon's own"
  )
  func ownOpenFolder_refusedOrFixed() throws {
    let base = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let folder = base + "/open"
    mkdir(folder, 0o700)
    chmod(folder, 0o777)
    let error = #expect(throws: PrivateFolder.Unsafe.self) {
      try PrivateFolder.prepare(folder, fixMode: false)
    }
    #expect(
      error?.reason
        == "other users may write to it (mode 0777): take their write access away (chmod go-w '\(folder)'), or choose another folder"
    )
    #expect(Self.mode(folder) == 0o777)
    #expect(try PrivateFolder.prepare(folder, fixMode: true) == .fixed(from: 0o777))
    #expect(Self.mode(folder) == 0o700)
    // Group-writable too.
    chmod(folder, 0o770)
    #expect(throws: PrivateFolder.Unsafe.self) { try PrivateFolder.prepare(folder, fixMode: false) }
    // Readable by others is no risk.
    chmod(folder, 0o755)
    #expect(try PrivateFolder.prepare(folder, fixMode: false) == .safe)
  }

  @Test(
    "a folder under one that others may write to and that is not sticky is refused; /tmp's sticky bit is fine"
  )
  func openParent_isRefusedUnlessSticky() throws {
    let base = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let parent = base + "/shared"
    mkdir(parent, 0o777)
    chmod(parent, 0o777)
    let folder = parent + "/mine"
    let error = #expect(throws: PrivateFolder.Unsafe.self) {
      try PrivateFolder.prepare(folder, fixMode: true)
    }
    #expect(
      error?.reason.hasPrefix(
        "other users may write to the folder '\(parent)' above it (mode 0777, not sticky)") == true)
    chmod(parent, 0o1777)
    #expect(try PrivateFolder.prepare(folder, fixMode: false) == .safe)
  }

  @Test(
    "a symbolic link as the folder is followed when this user owns it, refused when another does")
  func linkedFolder_followedOnlyWhenOwned() throws {
    let base = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let real = base + "/real"
    mkdir(real, 0o700)
    let link = base + "/link"
    symlink(real, link)
    #expect(try PrivateFolder.prepare(link, fixMode: false) == .safe)
    try #require(getuid() == 0, "chowning a link to another user needs root")
    lchown(link, Self.nobody, Self.nobody)
    let error = #expect(throws: PrivateFolder.Unsafe.self) {
      try PrivateFolder.prepare(link, fixMode: false)
    }
    #expect(error?.reason.hasPrefix("it is a symbolic link owned by uid 65534") == true)
  }

  @Test(
    "a replaced file is 0600 and new; a link planted at its name or at the old temporary name is never followed"
  )
  func replace_neverFollowsPlantedLinks() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let victim = folder + "/victim"
    try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
    let path = folder + "/sessions.json"
    // The names the daemon used to write through (fixed: `<file>.tmp`), and the file itself.
    symlink(victim, path + ".tmp")
    symlink(victim, path)
    try SafeFile.replace(path, with: Array("{}\n".utf8), durable: true)
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "{}\n")
    #expect(Self.mode(path) == 0o600)
    // The link at the old temporary name is left alone, and no temporary file is left.
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path + ".tmp") == victim)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    #expect(names == ["sessions.json", "sessions.json.tmp", "victim"])
  }

  @Test(
    "reading refuses a link, another user's file and what is not a regular file; a missing file is none"
  )
  func read_refusesWhatItShouldNotTrust() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(try SafeFile.read(folder + "/missing") == nil)
    let victim = folder + "/victim"
    try "secret".write(toFile: victim, atomically: false, encoding: .utf8)
    symlink(victim, folder + "/link")
    let link = #expect(throws: SafeFile.Failure.self) { try SafeFile.read(folder + "/link") }
    #expect(link?.description == "'\(folder)/link' is a symbolic link, which is never followed")
    mkfifo(folder + "/fifo", 0o600)
    #expect(throws: SafeFile.Failure.self) { try SafeFile.read(folder + "/fifo") }
    try #require(getuid() == 0, "chowning a file to another user needs root")
    chown(victim, Self.nobody, Self.nobody)
    let other = #expect(throws: SafeFile.Failure.self) { try SafeFile.read(victim) }
    #expect(other?.description == "'\(victim)' belongs to uid 65534, not to this user (uid 0)")
  }

  @Test(
    "a file moved aside keeps its bytes under <name>.bad-<UTC time>, and a second one never goes over the first"
  )
  func moveAside_keepsTheBytes() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/sessions.json"
    let bytes = Data([0x7B, 0xFF, 0x00, 0x0A])
    try bytes.write(to: URL(fileURLWithPath: path))
    let first = try SafeFile.moveAside(path)
    #expect(
      first.range(of: #"/sessions\.json\.bad-\d{8}T\d{6}Z$"#, options: .regularExpression) != nil)
    #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == bytes)
    #expect(!FileManager.default.fileExists(atPath: path))
    try bytes.write(to: URL(fileURLWithPath: path))
    let second = try SafeFile.moveAside(path)
    // Within the same second (or the next): never over the first.
    #expect(second != first)
    #expect(FileManager.default.fileExists(atPath: first))
  }
}
