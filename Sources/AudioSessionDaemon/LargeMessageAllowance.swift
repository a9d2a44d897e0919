import NIOCore

/// Lets a message of the daemon larger than the slow-reader limit through (issue 25 item 3: the
/// `status` of 10,000 sessions is about 9 MB, over the 4 MiB after which a client that stops
/// reading is disconnected): while such a message is being written, the channel's write-buffer
/// water marks are raised by its size, so what counts against the limit is what waits beyond the
/// largest message in flight. Two large replies that a client does not read still exceed it.
final class LargeMessageAllowance: ChannelOutboundHandler, RemovableChannelHandler {
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  /// The channel's own water marks, read at the first large message.
  private var base: ChannelOptions.Types.WriteBufferWaterMark?
  /// The sizes of the large messages being written.
  private var inFlight: [Int] = []

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    let size = unwrapOutboundIn(data).readableBytes
    if base == nil, size > 1 << 20 {
      base = try? context.channel.syncOptions?.getOption(ChannelOptions.writeBufferWaterMark)
    }
    guard let base, size > base.low else {
      context.write(data, promise: promise)
      return
    }
    inFlight.append(size)
    adjust(context, base)
    let written = promise ?? context.eventLoop.makePromise()
    written.futureResult.assumeIsolated().whenComplete { [self] _ in
      if let index = inFlight.firstIndex(of: size) { inFlight.remove(at: index) }
      adjust(context, base)
    }
    context.write(data, promise: written)
  }

  private func adjust(
    _ context: ChannelHandlerContext, _ base: ChannelOptions.Types.WriteBufferWaterMark
  ) {
    let extra = inFlight.max() ?? 0
    try? context.channel.syncOptions?.setOption(
      ChannelOptions.writeBufferWaterMark,
      value: .init(low: base.low + extra, high: base.high + extra))
  }
}
