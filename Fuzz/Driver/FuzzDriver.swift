// The fuzzing driver (docs/fuzzing.md). Built with `-D FUZZING` and `-sanitize=fuzzer`
// (scripts/fuzz.sh), it is libFuzzer's program: libFuzzer's own `main` calls
// LLVMFuzzerTestOneInput with each input, and FUZZ_TARGET names the target. Built plainly (the
// package's ordinary build), it replays files: `audiosession-fuzz TARGET FILE...`.
import AudioSessionFuzzTargets
import AudioSessionSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Runs one input on its own thread, and blocks until it is done (libFuzzer calls in from the
/// program's main thread, which is no thread of the cooperative pool).
private let runner = DedicatedThreadExecutor(name: "fuzz-input")

#if FUZZING
  private let target: FuzzTarget = {
    let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
      let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
      StandardStreams.writeError("FUZZ_TARGET must name a target: \(names)\n")
      exit(2)
    }
    return target
  }()

  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let target = target
    runner.runBlocking { await target.run(bytes) }
    return 0
  }
#else
  @main
  struct FuzzReplay {
    static func main() {
      let arguments = CommandLine.arguments.dropFirst()
      guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
        StandardStreams.writeError("usage: audiosession-fuzz \(names) FILE...\n")
        exit(2)
      }
      for file in arguments.dropFirst() {
        guard let bytes = try? SafeFile.read(file) ?? [] else {
          StandardStreams.writeError("cannot read \(file)\n")
          exit(1)
        }
        runner.runBlocking { await target.run(bytes) }
        print("\(file): ok")
      }
    }
  }
#endif
