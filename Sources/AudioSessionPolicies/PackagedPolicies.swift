import Foundation

/// The policy tables shipped as the package's resources (`policies/`, through the symbolic link
/// beside this file), so that a program or a test of a package that depends on this one finds
/// them with no argument and no environment variable (`EmbeddedAudioSystem()`; policies/README.md
/// "Where the policies are found").
public enum PackagedPolicies {
  /// The folder of the resources, or nil when the program was not built with them beside it (a
  /// program copied elsewhere): `Bundle.module`, read only when its bundle is there, since the
  /// accessor SwiftPM generates stops the program when it is not.
  public static var directory: String? {
    let folder = Bundle.main.bundleURL
    let bundles = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    guard bundles.contains(where: { $0.hasSuffix("_AudioSessionPolicies.resources") }) else {
      return nil
    }
    return Bundle.module.resourceURL?.path
  }
}
