import AudioSessionPolicies
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

@testable import AudioSession

/// The default lookup of the policy directory (policies/README.md, "Where the policies are
/// found"): `$AUDIOSESSION_POLICIES`, the user's `$XDG_CONFIG_HOME/audiosession/policies`, the
/// directory installed beside the executable, then the source checkout for a development build.
@Suite struct PolicyDiscoveryTests {
  /// A temporary tree: `home/.config`, an installed prefix `usr/` and a fake checkout.
  final class Tree {
    let root: String

    init() throws {
      root = NSTemporaryDirectory() + "policy-discovery-" + UUID().uuidString
      try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Creates `root/relative` as a directory and returns its path.
    @discardableResult
    func make(_ relative: String) throws -> String {
      let path = root + "/" + relative
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      return path
    }

    var home: String { root + "/home" }
    var executable: String { root + "/usr/bin/sessionctl" }
    var installed: String { root + "/usr/share/audiosession/policies" }
    var checkout: String { root + "/checkout" }
    var user: String { home + "/.config/audiosession/policies" }

    func search(_ environment: [String: String], executable: String? = nil) -> PolicyLoader.Search {
      PolicyLoader.search(
        environment: environment, executable: executable ?? self.executable,
        checkoutRoot: checkout)
    }
  }

  @Test("$AUDIOSESSION_POLICIES wins over every directory on disk, used as given")
  func environment_winsAsGiven() throws {
    let tree = try Tree()
    try tree.make("home/.config/audiosession/policies")
    try tree.make("usr/share/audiosession/policies")
    let search = tree.search(["AUDIOSESSION_POLICIES": "/from/env", "HOME": tree.home])
    #expect(search.directory == "/from/env")
  }

  @Test("the user's ~/.config/audiosession/policies overrides the installed directory")
  func userDirectory_overridesInstalled() throws {
    let tree = try Tree()
    try tree.make("home/.config/audiosession/policies")
    try tree.make("usr/share/audiosession/policies")
    #expect(tree.search(["HOME": tree.home]).directory == tree.user)
    let config = try tree.make("xdg")
    try tree.make("xdg/audiosession/policies")
    #expect(
      tree.search(["HOME": tree.home, "XDG_CONFIG_HOME": config]).directory
        == config + "/audiosession/policies")
    // A relative XDG_CONFIG_HOME is invalid (XDG base directory rules): ~/.config is used.
    #expect(
      tree.search(["HOME": tree.home, "XDG_CONFIG_HOME": "xdg"]).directory == tree.user)
  }

  @Test("the installed directory is ../share/audiosession/policies from the executable's folder")
  func installed_isRelativeToTheExecutable() throws {
    let tree = try Tree()
    try tree.make("usr/share/audiosession/policies")
    let search = tree.search(["HOME": tree.home])
    #expect(search.directory == tree.installed)
    #expect(
      search.places.map(\.skipped) == ["not set", "no such directory", nil],
      "the environment and the user's directory come first")
  }

  @Test("the checkout's policies/ serve only a program run from inside that checkout")
  func checkout_onlyForADevelopmentBuild() throws {
    let tree = try Tree()
    try tree.make("checkout/policies")
    try tree.make("checkout/.build/debug")
    #expect(
      tree.search(["HOME": tree.home], executable: tree.checkout + "/.build/debug/sessionctl")
        .directory == tree.checkout + "/policies")
    let installed = tree.search(["HOME": tree.home])
    #expect(installed.directory == nil, "an installed program does not read a checkout")
    #expect(
      installed.places.last
        == PolicyLoader.SearchedPlace(
          name: "source checkout", path: tree.checkout + "/policies",
          skipped: "only for a program run from inside that checkout"))
  }

  @Test(
    "a program outside the checkout falls back to the package's resources, last (policies/README.md Where the policies are found)"
  )
  func packaged_lastForAProgramOutsideTheCheckout() throws {
    let tree = try Tree()
    try tree.make("checkout/policies")
    let packaged = try tree.make("other/.build/debug/AudioSession_AudioSessionPolicies.resources")
    let outside = PolicyLoader.search(
      environment: ["HOME": tree.home], executable: tree.root + "/other/.build/debug/xctest",
      checkoutRoot: tree.checkout, packaged: packaged)
    #expect(outside.directory == packaged)
    #expect(
      outside.places.last
        == PolicyLoader.SearchedPlace(name: "the package's resources", path: packaged, skipped: nil)
    )
    // Every earlier place wins over it.
    try tree.make("home/.config/audiosession/policies")
    #expect(
      PolicyLoader.search(
        environment: ["HOME": tree.home], executable: tree.executable,
        checkoutRoot: tree.checkout, packaged: packaged
      ).directory == tree.user)
  }

  @Test(
    "the tables ship as the package's resources and load, so EmbeddedAudioSystem() needs no argument (policies/README.md Where the policies are found)"
  )
  func packaged_resourcesLoad() throws {
    let directory = try #require(PackagedPolicies.directory)
    let table = try PolicyLoader.load(directory: directory)
    let checkout = try PolicyLoader.load(directory: Repository.policies)
    #expect(table.profileOrder == checkout.profileOrder)
    #expect(table.categories.count == checkout.categories.count)
    for name in ["categories.json", "profiles.json", "devices.json"] {
      #expect(
        FileManager.default.contents(atPath: directory + "/" + name)
          == FileManager.default.contents(atPath: Repository.policies + "/" + name), "\(name)")
    }
  }

  @Test("the report names every place looked at, in order, with why each was not used")
  func report_listsEveryPlace() throws {
    let tree = try Tree()
    let search = tree.search(["HOME": tree.home])
    #expect(
      search.report == """
          1. $AUDIOSESSION_POLICIES: (not set)
          2. ~/.config/audiosession/policies: \(tree.user) (no such directory)
          3. installed with \(tree.executable): \(tree.installed) (no such directory)
          4. source checkout: \(tree.checkout)/policies \
        (only for a program run from inside that checkout)
        """)
  }
}
