import ArgumentParser
import Foundation
import SmrunCore
import Statecraft
import StatecraftServer
import StatecraftStore

/// `smrun instances list|show|history|delete|migrate`: the instances of a store, beside a
/// running server or without one (docs/serving.md).
struct InstancesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "instances",
        _superCommandName: Smrun.name,
        abstract: "List, show, delete and migrate the instances in a store that smrun serve keeps.",
        discussion: """
            Each subcommand prints what the server's API answers (JSON), or a line per instance or \
            entry (text). It may run beside a running server: the store serializes their writes.

            Examples:
              smrun instances list --store orders.sqlite order --state awaitingPayment
              smrun instances history --store orders.sqlite order A-1001
              smrun instances migrate --store orders.sqlite order.yaml
            """,
        subcommands: [List.self, Show.self, History.self, Delete.self, Migrate.self]
    )

    /// The store and the output format, which every subcommand takes.
    struct StoreOptions: ParsableArguments {
        @Option(help: ArgumentHelp("The SQLite file, or the postgres://USER@HOST:PORT/DATABASE URL, that smrun serve keeps.", valueName: "store"))
        var store = "statecraft.sqlite"

        @Option(help: "Output format: text (a line per instance or entry) or json (the API's answer).")
        var format: OutputFormat = .text

        /// Prints an answer: its body, or its problem's detail on standard error (exit 1 for a
        /// missing machine or instance, 2 for a bad request).
        func print(_ answer: APIAnswer, text: (Any) -> [String]) throws {
            guard answer.status < 300 else {
                let problem = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any]
                FileHandleOutput.standardError("smrun instances: \(problem?["detail"] as? String ?? "failed (\(answer.status))")\n")
                throw ExitCode(answer.status == 404 ? Smrun.Status.rejected : Smrun.Status.invalid)
            }
            if format == .json || answer.body.isEmpty {
                FileHandleOutput.standardOutput(String(decoding: answer.body, as: UTF8.self) + (answer.body.isEmpty ? "" : "\n"))
                return
            }
            let object = try JSONSerialization.jsonObject(with: Data(answer.body))
            FileHandleOutput.standardOutput(text(object).map { $0 + "\n" }.joined())
        }

        /// Runs `body` on the store, reporting a store that cannot be opened (exit 2).
        func run(_ body: @escaping @Sendable (InstanceService) async throws -> APIAnswer) throws -> APIAnswer {
            let options = self
            do {
                return try BlockingTask.run {
                    try await StoreOpener.withExisting(options.store) { store in
                        // The instances show the clock that the store's server runs them on.
                        let clock = MachineSnapshot.Clock(rawValue: try await store.recordedClock() ?? "real") ?? .real
                        let catalog = try await DefinitionCatalog(store: store, current: [])
                        return try await body(InstanceService(catalog: catalog, idempotencyTTL: 0, clock: clock))
                    }
                }
            } catch {
                FileHandleOutput.standardError("smrun instances: \(error)\n")
                throw ExitCode(Smrun.Status.invalid)
            }
        }
    }

    /// One instance as a text line: `KEY  STATE  STATUS  vVERSION  UPDATED`.
    static func line(_ instance: [String: Any]) -> String {
        let state = (instance["state"] as? String) ?? ((instance["configuration"] as? [String]) ?? []).joined(separator: ", ")
        return "\(instance["key"] ?? "")  \(state)  \(instance["status"] ?? "")  v\(instance["version"] ?? "")  \(instance["updated"] ?? "")"
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a machine's instances, by key.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The machine's name.") var machine: String
        @Option(help: "Only the instances in this state (or in a child of it).") var state: String?
        @Option(help: "Only the running or the final instances.") var status: String?
        @Option(help: "At most this many (1 to 1000).") var limit = 100
        @Option(help: "Start after this page's cursor (the `next` of a JSON answer).") var cursor: String?

        func run() throws {
            let (machine, state, status, cursor, limit) = (machine, state, status, cursor, limit)
            guard (1...1_000).contains(limit) else { throw ValidationError("--limit must be from 1 to 1000, not \(limit)") }
            let answer = try options.run { try await $0.list(machine: machine, state: state, status: status, cursor: cursor, limit: limit) }
            try options.print(answer) { object in
                let page = object as? [String: Any]
                let lines = ((page?["instances"] as? [[String: Any]]) ?? []).map(InstancesCommand.line)
                return lines + ((page?["next"] as? String).map { ["(more: --cursor \($0))"] } ?? [])
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one instance.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The machine's name.") var machine: String
        @Argument(help: "The instance's key.") var key: String

        func run() throws {
            let (machine, key) = (machine, key)
            let answer = try options.run { try await $0.instance(machine: machine, key: key) }
            try options.print(answer) { object in
                let instance = object as? [String: Any] ?? [:]
                var lines = [InstancesCommand.line(instance)]
                if let context = instance["context"], let data = try? JSONSerialization.data(withJSONObject: context, options: [.sortedKeys]) {
                    lines.append("context: " + String(decoding: data, as: UTF8.self))
                }
                for timer in (instance["timers"] as? [[String: Any]]) ?? [] {
                    lines.append("timer: " + String(decoding: (try? JSONSerialization.data(withJSONObject: timer, options: [.sortedKeys])) ?? Data(), as: UTF8.self))
                }
                return lines
            }
        }
    }

    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show an instance's history, oldest first.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The machine's name.") var machine: String
        @Argument(help: "The instance's key.") var key: String
        @Option(help: "Only the entries after this seq.") var after = 0
        @Option(help: "At most this many (1 to 1000).") var limit = 1_000

        func run() throws {
            let (machine, key, after, limit) = (machine, key, after, limit)
            guard (1...1_000).contains(limit) else { throw ValidationError("--limit must be from 1 to 1000, not \(limit)") }
            let answer = try options.run { try await $0.history(machine: machine, key: key, after: after, limit: limit) }
            try options.print(answer) { object in
                ((object as? [String: Any])?["entries"] as? [[String: Any]] ?? []).map { entry in
                    let what =
                        (entry["start"] as? Bool == true) ? "start" : (entry["input"] as? String).map { "input \($0)" } ?? "timer"
                    let results = (entry["results"] as? [[String: Any]]) ?? []
                    let outcome = results.first.map { ($0["ok"] as? Bool == true) ? "ok" : ($0["error"] as? String ?? "?") } ?? "-"
                    return "\(entry["seq"] ?? "")  \(entry["at"] ?? "")  \(what)  \(outcome)"
                }
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an instance with its history, timers and idempotency records.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The machine's name.") var machine: String
        @Argument(help: "The instance's key.") var key: String

        func run() throws {
            let (machine, key) = (machine, key)
            try options.print(try options.run { try await $0.delete(machine: machine, key: key, ifMatch: nil) }) { _ in [] }
        }
    }

    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move a machine's instances to its file's definition, by the rules of --migrate.",
            discussion: "Exit status: 0 when every instance runs on the file's definition, 1 when some were refused.")
        @Option(help: ArgumentHelp("The SQLite file, or the postgres://USER@HOST:PORT/DATABASE URL, that smrun serve keeps.", valueName: "store"))
        var store = "statecraft.sqlite"
        @Argument(help: "The machine file.", completion: .file(extensions: ["yaml", "yml", "scxml"])) var machine: String
        @OptionGroup var limits: MachineOptions

        func run() throws {
            let loaded = limits.load(machine)
            DiagnosticPrinter.printToStandardError(loaded.diagnostics.filter { $0.severity == .error }, file: machine)
            guard let compiled = loaded.machine, case .success(let source) = FileReader.contents(of: machine, maximumBytes: limits.limits.maximumBytes),
                let target = InstanceServer.Machine.load(source: source, isSCXML: limits.format(of: machine) == .scxml, defaultName: compiled.name).0
            else { throw ExitCode(Smrun.Status.invalid) }
            let storePath = store
            let refused: Int?
            do {
                refused = try BlockingTask.run {
                    try await StoreOpener.withExisting(storePath) { store in
                        // A machine the store has never held is missing, as for the other
                        // subcommands: nothing is stored for it.
                        guard try await !store.definitions(machine: compiled.name).isEmpty else { return nil }
                        let catalog = try await DefinitionCatalog(store: store, current: [])
                        var refused = 0
                        try await InstanceMigrator(catalog: catalog, target: target.runtime).migrateAll { id, outcome in
                            switch outcome {
                            case .current: break
                            case .migrated(let migration):
                                FileHandleOutput.standardOutput("\(id.key): " + MigrationSummary.text(migration, machine: compiled, done: true) + "\n")
                            case .refused(let reason):
                                refused += 1
                                FileHandleOutput.standardOutput("\(id.key): refused: \(reason)\n")
                            }
                        }
                        return refused
                    }
                }
            } catch {
                FileHandleOutput.standardError("smrun instances migrate: \(error)\n")
                throw ExitCode(Smrun.Status.invalid)
            }
            guard let refused else {
                FileHandleOutput.standardError("smrun instances migrate: no machine '\(compiled.name)' in \(storePath)\n")
                throw ExitCode(Smrun.Status.rejected)
            }
            if refused > 0 { throw ExitCode(Smrun.Status.rejected) }
        }
    }
}
