import NIOPosix
import SmrunCore
import Statecraft
import StatecraftStore
import Synchronization

/// The SVG drawings of definitions, each drawn once by Graphviz (``Graphviz``) on NIO's
/// blocking thread pool and kept in memory by fingerprint; requests for a drawing under way
/// wait for it. A failure is not kept: the next request tries again (after Graphviz is installed,
/// say).
package final class DiagramCache: Sendable {
    package init() {}

    private let drawings = Mutex<[String: Task<[UInt8], any Error>]>([:])

    /// The SVG of `runtime`'s definition, with its hooks.
    package func svg(_ runtime: MachineRuntime) async throws -> [UInt8] {
        let task = drawings.withLock { drawings in
            if let task = drawings[runtime.fingerprint] { return task }
            let task = Task {
                try await NIOThreadPool.singleton.runIfActive {
                    try Graphviz.svg(runtime.machine, definition: runtime.written)
                }
            }
            drawings[runtime.fingerprint] = task
            return task
        }
        do {
            return try await task.value
        } catch {
            drawings.withLock { drawings in
                if drawings[runtime.fingerprint] == task { drawings[runtime.fingerprint] = nil }
            }
            throw error
        }
    }
}
