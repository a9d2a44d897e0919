public import AudioSession

/// The reply to `session`: everything the client library reads of its session.
public enum WireSession {
  /// `status`'s session object (`availableInputs`, `otherAudioPlaying`,
  /// `secondaryAudioShouldBeSilencedHint` and `outputVolume` among its members) plus
  /// `portOverride`, `isOtherAudioPlaying` and `inputDataSources`.
  public static func json(_ status: SessionStatus) -> JSONObject {
    var object: JSONObject = ["name": .string(status.name)]
    for member in TranscriptJSON.session(status).members {
      object.append(member.key, member.value)
    }
    object.append("portOverride", .string(status.portOverride.name))
    object.append("isOtherAudioPlaying", .bool(status.isOtherAudioPlaying))
    object.append("inputDataSources", .strings(status.inputDataSources))
    object.append("maximumInputNumberOfChannels", .int(status.maximumInputNumberOfChannels))
    object.append("maximumOutputNumberOfChannels", .int(status.maximumOutputNumberOfChannels))
    object.append("recordPermission", .string(status.recordPermission.name))
    return object
  }

  /// Reads the `session` reply: the session and its available inputs.
  public static func decode(_ object: JSONObject) throws(WireDecodingError) -> (
    status: SessionStatus, availableInputs: [PortDescription], dataSources: [String]
  ) {
    let reader = WireReader(object: object, path: "session")
    let name = try reader.string("name")
    var inputs: [PortDescription] = []
    for item in try reader.objects("availableInputs") { inputs.append(try WireDecoding.port(item)) }
    let sources = object["inputDataSources"] == nil ? [] : try reader.strings("inputDataSources")
    var status = try WireDecoding.session(object, name: name)
    if case .int(let count)? = object["maximumInputNumberOfChannels"] {
      status.maximumInputNumberOfChannels = count
    }
    if case .int(let count)? = object["maximumOutputNumberOfChannels"] {
      status.maximumOutputNumberOfChannels = count
    }
    if case .string(let name)? = object["recordPermission"],
      let permission = RecordPermission(name: name)
    {
      status.recordPermission = permission
    }
    return (status, inputs, sources)
  }
}
