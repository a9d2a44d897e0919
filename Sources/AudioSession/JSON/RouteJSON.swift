// Ports, routes and devices: what `route` and `devices` answer, and what a session's route and
// a route change carry (docs/contract.md "The transcript"; docs/protocol.md "Operations").

extension JSONKey {
  /// The members of a port, and of a device's port.
  enum Port {
    static let portType = "portType", portName = "portName", uid = "uid", direction = "direction"
  }

  /// The members of a route.
  enum Route {
    static let inputs = "inputs", outputs = "outputs"
  }

  /// The members of a device.
  enum Device {
    static let uid = "uid", name = "name", preset = "preset", ports = "ports"
  }
}

extension TranscriptJSON {
  /// `{"portType":…,"portName":…,"uid":…}`.
  public static func port(_ port: PortDescription) -> JSONObject {
    typealias Key = JSONKey.Port
    return [
      Key.portType: .string(port.portType.name), Key.portName: .string(port.portName),
      Key.uid: .string(port.uid),
    ]
  }

  /// `{"inputs":[ports],"outputs":[ports]}`.
  public static func route(_ route: RouteDescription) -> JSONObject {
    [
      JSONKey.Route.inputs: .array(route.inputs.map { .object(port($0)) }),
      JSONKey.Route.outputs: .array(route.outputs.map { .object(port($0)) }),
    ]
  }

  /// `{"uid":…,"name":…,"preset":…,"ports":[{"portType","portName","uid","direction"}]}`;
  /// `preset` only for devices made from one.
  public static func device(_ device: Device) -> JSONObject {
    typealias Key = JSONKey.Device
    var object: JSONObject = [Key.uid: .string(device.uid), Key.name: .string(device.name)]
    if let preset = device.preset { object.append(Key.preset, .string(preset)) }
    object.append(
      Key.ports,
      .array(
        device.ports.map {
          var port = port($0.description)
          port.append(JSONKey.Port.direction, .string($0.direction.rawValue))
          return .object(port)
        }))
    return object
  }
}

extension WireDecoding {
  /// ``TranscriptJSON/port(_:)`` read back.
  public static func port(_ object: JSONObject) throws(WireDecodingError) -> PortDescription {
    typealias Key = JSONKey.Port
    let reader = WireReader(object: object, path: "port")
    return PortDescription(
      portType: try reader.named(Key.portType, PortType.self),
      portName: try reader.string(Key.portName), uid: try reader.string(Key.uid))
  }

  /// ``TranscriptJSON/route(_:)`` read back.
  public static func route(_ object: JSONObject) throws(WireDecodingError) -> RouteDescription {
    let reader = WireReader(object: object, path: "route")
    return RouteDescription(
      inputs: try reader.list(JSONKey.Route.inputs, port),
      outputs: try reader.list(JSONKey.Route.outputs, port))
  }

  /// ``TranscriptJSON/device(_:)`` read back: a device of `devices` or `status`.
  public static func device(_ object: JSONObject) throws(WireDecodingError) -> Device {
    typealias Key = JSONKey.Device
    let reader = WireReader(object: object, path: "device")
    let ports = try reader.list(Key.ports) { item throws(WireDecodingError) in
      let described = try port(item)
      let direction = try WireReader(object: item, path: "port").string(JSONKey.Port.direction)
      guard let value = PortDirection(rawValue: direction) else {
        throw WireDecodingError("port: unknown direction '\(direction)'")
      }
      return DevicePort(
        type: described.portType, direction: value, name: described.portName, uid: described.uid)
    }
    return Device(
      uid: try reader.string(Key.uid), name: try reader.string(Key.name),
      preset: try reader.optionalString(Key.preset), ports: ports)
  }
}
