package import NIOCore

/// One framed inbound message.
package enum InboundLine: Sendable {
  /// A line's bytes, without the newline (and without a trailing carriage return).
  case message([UInt8])
  /// A line longer than the limit; its bytes were discarded up to the next newline.
  case oversized
}

/// Splits the byte stream into newline-terminated messages of at most `limit` bytes.
///
/// A line that grows past the limit is reported once as ``InboundLine/oversized`` and then
/// skipped up to its newline, so the messages after it are read normally. Empty lines are
/// ignored. Memory per connection stays under the limit plus one read.
package struct LineFrameDecoder: ByteToMessageDecoder {
  package typealias InboundOut = InboundLine

  let limit: Int
  /// True while skipping the rest of an oversized line.
  private var discarding = false

  package init(limit: Int) { self.limit = limit }

  package mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws
    -> DecodingState
  {
    let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n"))
    guard let newline else {
      if discarding {
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
      } else if buffer.readableBytes > limit {
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        discarding = true
        context.fireChannelRead(wrapInboundOut(.oversized))
      }
      return .needMoreData
    }
    let length = newline - buffer.readerIndex
    if discarding {
      buffer.moveReaderIndex(forwardBy: length + 1)
      discarding = false
      return .continue
    }
    guard length <= limit else {
      buffer.moveReaderIndex(forwardBy: length + 1)
      context.fireChannelRead(wrapInboundOut(.oversized))
      return .continue
    }
    var bytes = buffer.readBytes(length: length) ?? []
    buffer.moveReaderIndex(forwardBy: 1)
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    if !bytes.isEmpty { context.fireChannelRead(wrapInboundOut(.message(bytes))) }
    return .continue
  }

  package mutating func decodeLast(
    context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
  ) throws -> DecodingState {
    // A last line without its newline is still a message.
    while try decode(context: context, buffer: &buffer) == .continue {}
    if !discarding, buffer.readableBytes > 0,
      let bytes = buffer.readBytes(length: buffer.readableBytes)
    {
      context.fireChannelRead(wrapInboundOut(.message(bytes)))
    }
    return .needMoreData
  }
}
