import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import SketchEase
import Synchronization

/// `sketchease serve`: the web app on one port of each address it listens on (127.0.0.1 and
/// ::1 unless told otherwise), until interrupted.
public struct EditorServer: Sendable {
    public let settings: ServeSettings
    /// The port chosen (a free one unless the settings name one).
    public let port: Int
    /// The addresses actually listened on.
    public let hosts: [String]
    private let api: API
    private let clipRoutes: ClipRoutes
    private let liveRoutes: LiveRoutes
    private let log: @Sendable (String) -> Void

    /// Everything is checked here, before anything listens: the web app's files, the output
    /// folder, a free port.
    public init(settings: ServeSettings, detector: OpenCVFaceDetector, log: @escaping @Sendable (String) -> Void) throws {
        self.settings = settings
        self.log = log
        let site = try SiteFiles.load()
        try OutputFolder.prepare(settings.outputFolder)
        (port, hosts) = try PortChooser.choose(hosts: settings.hosts, requested: settings.port, log: log)
        let names = Set(settings.hosts.map { $0.lowercased() })
        let guardian = RequestGuard<BasicRequestContext>(token: settings.token, port: port, hostNames: names, log: log)
        api = API(settings: settings, library: try PhotoLibrary(settings: settings),
                  workspaces: Workspaces(settings: settings, detector: detector), site: site,
                  guardian: guardian, log: log)
        clipRoutes = ClipRoutes(api: api, clips: ClipWorkspaces(settings: settings, detector: detector, log: log))
        liveRoutes = LiveRoutes(api: api, sessions: LiveSessions(settings: settings, detector: detector),
                                recordings: LiveRecordings(settings: settings, log: log))
    }

    /// The address to open: the first host, with the token.
    public var url: String {
        let host = hosts.first ?? "127.0.0.1"
        let shown = host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(port)/?token=\(settings.token)" + (settings.live ? "#live" : "")
    }

    /// Listens until SIGINT or SIGTERM; `ready` runs once every address is listening.
    public func run(ready: @escaping @Sendable () -> Void) async throws {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: api.guardian)
        router.add(middleware: ErrorAnswers(log: log))
        SiteRoutes(api: api).register(on: router)
        LibraryRoutes(api: api).register(on: router)
        EditingRoutes(api: api).register(on: router)
        clipRoutes.register(on: router)
        liveRoutes.register(on: router)
        let responder = router.buildResponder()
        var quiet = Logger(label: "sketchease.serve")
        quiet.logLevel = .error
        let started = Atomic<Int>(0)
        let count = hosts.count
        let apps = hosts.map { host in
            Application(responder: responder,
                        configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
                        onServerRunning: { _ in
                            if started.wrappingAdd(1, ordering: .relaxed).newValue == count { ready() }
                        },
                        logger: quiet)
        }
        let group = ServiceGroup(configuration: .init(services: apps, gracefulShutdownSignals: [.sigterm, .sigint], logger: quiet))
        Workspaces.warmUp()
        FrameStore.removeLeftovers()
        // Live recordings whose page went away without a word are finished after a while.
        let recordings = liveRoutes.recordings
        let watch = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(0.5))
                recordings.finishIdle()
            }
        }
        // Stopped (Ctrl+C): recordings under way are finished into their MP4s.
        defer { watch.cancel(); recordings.finishAll() }
        try await group.run()
    }
}
