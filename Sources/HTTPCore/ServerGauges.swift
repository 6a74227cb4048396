import Synchronization

/// What a running ``HTTPServer`` holds now: its open connections and held long polls. For the
/// tests, which wait until the server is in a state (a connection dropped, a poll's place
/// freed) instead of sleeping and hoping it is; reading it takes a lock, and the server only
/// hands it its connections' registry when it starts.
package final class ServerGauges: Sendable {
    private let registry = Mutex<ConnectionRegistry?>(nil)

    package init() {}

    /// The connections open now (0 before the server starts).
    package var openConnections: Int { registry.withLock { $0?.count ?? 0 } }

    /// The long polls held now (0 before the server starts).
    package var heldPolls: Int { registry.withLock { $0?.polls ?? 0 } }

    /// Called by ``HTTPServer/run(onListening:)`` with the registry of the run.
    func attach(_ registry: ConnectionRegistry) {
        self.registry.withLock { $0 = registry }
    }
}
