// An application of one's own that embeds Statecraft's store and instances API
// (docs/serving.md, "Embedding the store and the routes"): the order machine of
// docs/examples/order.yaml, on a SQLite file, beside a route of the application's own.
//
//     EmbeddedOrderServer PORT STORE [TOKEN]
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import StatecraftServer
import StatecraftStore

let arguments = CommandLine.arguments
guard arguments.count >= 3, let port = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: EmbeddedOrderServer PORT STORE [TOKEN]\n".utf8))
    exit(2)
}
let machineFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("order.yaml")
let (machine, loaded) = InstanceServer.Machine.load(
    source: Array(try Data(contentsOf: machineFile)), isSCXML: false, defaultName: "order")
guard let machine else {
    FileHandle.standardError.write(Data("order.yaml does not load: \(loaded.diagnostics)\n".utf8))
    exit(2)
}

let store = try SQLiteStore(path: arguments[2])
var configuration = InstanceServer.Configuration()
configuration.token = arguments.count > 3 ? arguments[3] : nil
let server = try await InstanceServer(machines: [machine], store: store, configuration: configuration)

let router = Router()
router.get("/hello") { _, _ in "an application's own route\n" }
server.addRoutes(to: router)
let logger = Logger(label: "embedded-order-server")
let application = Application(
    router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { channel in FileHandle.standardOutput.write(Data("listening on \(channel.localAddress?.port ?? 0)\n".utf8)) },
    logger: logger)
// The server's background services (timers, the end of the events feeds) after the
// application, so that they stop first.
let services = ServiceGroup(
    configuration: .init(services: [application] + server.backgroundServices, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
try await services.run()
try await store.close()
