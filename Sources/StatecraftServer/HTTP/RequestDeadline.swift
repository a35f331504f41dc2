import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes

/// HTTP/1.1 with a deadline per request: from its first byte, a request must arrive whole
/// (head and body) within ``limit``, or the connection is closed; a slow-drip client holds a
/// connection no longer than that. Idle connections between requests are HTTP1Channel's
/// `idleTimeout`'s. Its requests know their connection (``FeedConnections/current``).
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
        await FeedConnections.$current.withValue(value.channel) {
            await inner.handle(value: value, logger: logger)
        }
    }
}

/// First in the pipeline, on raw bytes: notes when a request's first byte arrives, and closes
/// the connection when that request has not arrived whole ``limit`` later
/// (``RequestEndNotifier`` says when it has).
///
/// A connection has one timer at most, armed at the first byte of a request when none is
/// pending and moved on only when it fires: back-to-back requests then cost a clock read each,
/// where a timer scheduled and cancelled per request, and a user event sent down the pipeline
/// to cancel it, cost some 7,000 instructions a request on the event loop (docs/performance.md,
/// round 29).
private final class RequestDeadlineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let limit: TimeAmount
    /// When the request now arriving began; `nil` between requests.
    private var requestStarted: NIODeadline?
    private var timer: Scheduled<Void>?

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if requestStarted == nil {
            let now = NIODeadline.now()
            requestStarted = now
            if timer == nil { arm(at: now + limit, on: context.eventLoop, closing: context.channel) }
        }
        context.fireChannelRead(data)
    }

    /// The request arrived whole: the next byte starts the next one.
    func requestArrived() {
        requestStarted = nil
    }

    /// At `due`: closes the connection if the request then arriving began `limit` before or
    /// earlier, waits for the one that began later, and stops between requests.
    private func arm(at due: NIODeadline, on eventLoop: any EventLoop, closing channel: any Channel) {
        timer = eventLoop.assumeIsolated().scheduleTask(deadline: due) { [self] in
            timer = nil
            guard let started = requestStarted else { return }
            if started + limit <= NIODeadline.now() {
                channel.close(promise: nil)
            } else {
                arm(at: started + limit, on: eventLoop, closing: channel)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }
}

/// After the HTTP decoder: tells the connection's ``RequestDeadlineHandler`` when a request's
/// end arrives (directly: both run on the connection's event loop).
private final class RequestEndNotifier: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    private var deadline: RequestDeadlineHandler?

    func handlerAdded(context: ChannelHandlerContext) {
        deadline = try? context.pipeline.syncOperations.handler(type: RequestDeadlineHandler.self)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) { deadline?.requestArrived() }
        context.fireChannelRead(data)
    }
}
