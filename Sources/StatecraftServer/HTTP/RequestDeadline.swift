import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes

/// HTTP/1.1 with a deadline per request: from its first byte, a request must arrive whole
/// (head and body) within ``limit``, or the connection is closed; a slow-drip client holds a
/// connection no longer than that. Idle connections between requests are HTTP1Channel's
/// `idleTimeout`'s.
struct DeadlineHTTP1Channel: ServerChildChannel {
    let inner: HTTP1Channel
    let limit: TimeAmount

    init(responder: @escaping HTTPChannelHandler.Responder, idleTimeout: TimeAmount, limit: TimeAmount) {
        inner = HTTP1Channel(
            responder: responder, configuration: .init(additionalChannelHandlers: [RequestEndNotifier()], idleTimeout: idleTimeout))
        self.limit = limit
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(RequestDeadlineHandler(limit: limit), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// The user event by which the decoded side says a request arrived whole.
private struct RequestArrived {}

/// First in the pipeline, on raw bytes: arms the deadline at a request's first byte, disarms it
/// when ``RequestEndNotifier`` says the request arrived whole, and closes the connection when
/// it passes.
private final class RequestDeadlineHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    let limit: TimeAmount
    private var deadline: Scheduled<Void>?

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if deadline == nil {
            let channel = context.channel
            deadline = context.eventLoop.scheduleTask(in: limit) { channel.close(promise: nil) }
        }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is RequestArrived else { return context.triggerUserOutboundEvent(event, promise: promise) }
        deadline?.cancel()
        deadline = nil
        promise?.succeed()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }
}

/// After the HTTP decoder: tells ``RequestDeadlineHandler`` when a request's end arrives.
private final class RequestEndNotifier: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) { context.triggerUserOutboundEvent(RequestArrived(), promise: nil) }
        context.fireChannelRead(data)
    }
}
