import ArgumentParser
import AudioSessionSystem
import FoundationEssentials

extension Sessionctl {
  /// `sessionctl port-ios FILE|DIR… [--stdout]`.
  struct PortIOS: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "port-ios",
      abstract: "Rewrites iOS Swift files' @objc observers into what compiles on Linux.",
      discussion: """
        Deletes @objc, @objcMembers and dynamic, and turns #selector(handle(_:)) into \
        Selector(Self.handle(_:)), which AVFAudio's NotificationCenter.addObserver(_:selector:\
        name:object:) calls; nothing else changes (docs/ios-compat.md "Selectors"). Each FILE is \
        rewritten in place, each DIR's .swift files too (its subfolders included); with \
        --stdout the results are printed instead and no file changes. Prints each file it \
        changed, and a note for what it left (a property's selector).
        """)

    @Argument(help: ArgumentHelp("Swift files, or folders of them.", valueName: "path"))
    var paths: [String]

    @Flag(help: "Print the rewritten files instead of writing them.")
    var stdout = false

    func validate() throws {
      guard !paths.isEmpty else { throw ValidationError("Give at least one Swift file or folder.") }
    }

    func run() throws {
      for file in try Self.files(paths) {
        guard let data = ProcFile.bytes(file),
          let source = String(validating: data, as: UTF8.self)
        else { throw ValidationError("cannot read '\(file)' as UTF-8 text") }
        let result = IOSPort.rewrite(source)
        for note in result.notes { print("\(file): \(note)") }
        if stdout {
          print(result.text, terminator: "")
        } else if result.changed {
          guard FileManager.default.createFile(atPath: file, contents: Data(result.text.utf8))
          else { throw ValidationError("cannot write '\(file)'") }
          print("ported \(file)")
        }
      }
    }

    /// The Swift files the paths name, in the order given, each folder's sorted.
    static func files(_ paths: [String]) throws -> [String] {
      var files: [String] = []
      for path in paths {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
          throw ValidationError("no such file or folder: '\(path)'")
        }
        guard isFolder else {
          guard path.hasSuffix(".swift") else {
            throw ValidationError("'\(path)' is not a Swift file (.swift)")
          }
          files.append(path)
          continue
        }
        let found = try FileManager.default.subpathsOfDirectory(atPath: path)
          .filter { $0.hasSuffix(".swift") }.sorted()
        files += found.map { path.hasSuffix("/") ? path + $0 : path + "/" + $0 }
      }
      return files
    }
  }
}
