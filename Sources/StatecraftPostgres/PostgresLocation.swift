import Foundation
import PostgresNIO
import StatecraftStore

/// Where a ``PostgresStore`` connects: a `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` URL
/// (`postgresql://` too), with libpq's `sslmode` query option: `disable`, `allow` or `prefer`
/// (the default: TLS when the server offers it, unverified), `require` (TLS, unverified),
/// `verify-ca` (TLS, the certificate checked against the system's roots) or `verify-full` (and
/// the host name too).
public struct PostgresLocation: Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    var password: String?
    public var database: String
    public var sslMode: String

    /// Whether `text` names a PostgreSQL database rather than a file.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Reads a URL; throws ``StoreError/unreadable(_:)`` naming what is wrong with it.
    public init(url text: String) throws {
        guard Self.isURL(text), let components = URLComponents(string: text), let host = components.host, !host.isEmpty else {
            throw StoreError.unreadable("\(Self.redacted(text)): not a postgres://USER@HOST:PORT/DATABASE URL")
        }
        guard let user = components.user, !user.isEmpty else {
            throw StoreError.unreadable("\(Self.redacted(text)): the URL names no user (postgres://USER@HOST:PORT/DATABASE)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw StoreError.unreadable("\(Self.redacted(text)): the URL names no database (postgres://USER@HOST:PORT/DATABASE)")
        }
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        self.port = components.port ?? 5432
        self.user = components.user?.removingPercentEncoding ?? user
        self.password = components.password?.removingPercentEncoding
        self.database = database.removingPercentEncoding ?? database
        sslMode = "prefer"
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                let mode = item.value ?? ""
                guard ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"].contains(mode) else {
                    throw StoreError.unreadable(
                        "\(Self.redacted(text)): sslmode '\(mode)' is none of disable, allow, prefer, require, verify-ca, verify-full")
                }
                sslMode = mode
            default:
                throw StoreError.unreadable("\(Self.redacted(text)): unknown option '\(item.name)' (only sslmode is read)")
            }
        }
    }

    /// The URL without its password.
    public var description: String {
        "postgres://\(user)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)?sslmode=\(sslMode)"
    }

    var clientConfiguration: PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS
        switch self.tls {
        case nil: tls = .disable
        case let (configuration, optional)?: tls = optional ? .prefer(configuration) : .require(configuration)
        }
        return PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls)
    }

    /// The same for one connection of its own (``PostgresStore/open()``'s first), which
    /// connects within `connectTimeout`.
    func connectionConfiguration(connectTimeout: Duration) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch self.tls {
        case nil: tls = .disable
        case let (configuration, optional)?:
            let context = try NIOSSLContext(configuration: configuration)
            tls = optional ? .prefer(context) : .require(context)
        }
        var configuration = PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls)
        configuration.options.connectTimeout = TimeAmount(connectTimeout)
        return configuration
    }

    /// TLS as `sslmode` asks for it: none (`disable`), or how the server's certificate is
    /// checked (`allow`, `prefer` and `require` do not check it, `verify-ca` checks its chain,
    /// `verify-full` also its host name) and whether a server without TLS is taken too
    /// (`optional`: `allow` and `prefer`).
    private var tls: (configuration: TLSConfiguration, optional: Bool)? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case "disable": return nil
        case "verify-ca": configuration.certificateVerification = .noHostnameVerification
        case "verify-full": break
        default: configuration.certificateVerification = .none
        }
        return (configuration, sslMode == "allow" || sslMode == "prefer")
    }

    /// `text` with any password replaced, for messages.
    private static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? "the URL"
    }
}
