import ArgumentParser
import Foundation
import SketchEase
import WebApp

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Edit photos and clips in your browser, or style the camera live: click a face, pick a style.",
        discussion: """
            Serves a local web app for the photos in the given folders (walked recursively; \
            default: this folder) and prints its address, with a secret token that every \
            request must carry. It listens on 127.0.0.1 and ::1 only, unless --host says \
            otherwise. Exports go to OUT/<name>.png exactly as `sketchease apply` writes them; \
            edits are saved as you go in OUT/.sketchease/<name>.sketchease.json, the same session \
            files as `sketchease edit`, so a photo can move between the two (photos in \
            sub-folders: `edit --recursive`). Uploaded photos and camera pictures are kept in \
            OUT/uploads/. Clips are listed beside the photos: opened, their tracks are styled \
            as at `edit clip.mp4` (the same session), played and scrubbed, and exported to \
            OUT/<name>.mp4 as `video` writes them. Live (or --live) styles the camera's faces \
            as it films and records to OUT/live-<time>.mp4. Stop it with Ctrl+C.
              sketchease serve photos/ --out out/
              sketchease serve --open
              sketchease serve --live
            """
    )

    @Argument(help: ArgumentHelp("Folders of photos (walked recursively) and single photos.", valueName: "input"))
    var inputs: [String] = ["."]

    @Option(name: .shortAndLong, help: ArgumentHelp("Folder for exports, sessions and uploads (created if missing).", valueName: "dir"))
    var out: String = "out"

    @Option(help: ArgumentHelp("Port to listen on; 0 = any free port.",
                               discussion: "Default: \(ServeSettings.preferredPort) when it is free, else any free port."))
    var port: Int?

    @Option(name: .customLong("host"), help: ArgumentHelp(
        "Address to listen on instead of the loopback ones (repeatable), e.g. 0.0.0.0 for every network.",
        discussion: "Anyone who can reach the address and has the URL with its token can edit and export. Browsers allow the camera only on localhost or https.",
        valueName: "address"))
    var hosts: [String] = []

    @Flag(help: "Also open the page in the default browser (xdg-open).")
    var open = false

    @Flag(help: "Open the page straight into Live: the camera, every face drawn in its style as it films (tap a face to pick another).")
    var live = false

    @Option(help: ArgumentHelp("Refuse uploads larger than this many megabytes.", valueName: "MB"))
    var maxUpload: Int = ServeSettings.defaultUploadLimit / 1_000_000

    @OptionGroup var style: StyleFlags
    @OptionGroup var detection: DetectionFlags
    @OptionGroup var export: ExportFlags
    @OptionGroup var limits: PixelLimitFlag

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be 0...65535") }
        guard maxUpload > 0 else { throw ValidationError("--max-upload must be at least 1") }
    }

    func run() throws {
        let missing = inputs.filter { !FileManager.default.fileExists(atPath: $0) }
        for path in missing { Terminal.error("\(path): no such file or folder") }
        guard missing.count < inputs.count else { throw ExitCode.failure }
        var options = ServeSettings(
            inputs: inputs, outputFolder: out, hosts: hosts.isEmpty ? ServeSettings.loopback : hosts, port: port,
            detection: detection.options, render: try style.renderOptions(), export: export.options(overwrite: true),
            pixelLimit: limits.maxPixels, uploadLimit: maxUpload * 1_000_000, defaultStyle: try style.style())
        options.live = live
        let settings = options
        let server: EditorServer
        do {
            server = try EditorServer(settings: settings, detector: try detection.openDetector()) { Terminal.printErr("serve: " + $0) }
        } catch let error as ValidationError {
            throw error
        } catch {
            Terminal.error("\(error)")
            throw ExitCode.failure
        }
        let url = server.url
        let openBrowser = open
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: (any Error)?
        // Detached: the main thread waits below, and the server needs none of it.
        Task.detached {
            do {
                try await server.run {
                    let lines = "SketchEase is ready: \(url)\n"
                        + "Serving \(settings.inputs.joined(separator: ", ")) (listening on \(server.hosts.joined(separator: " and ")); "
                        + "exports, sessions and uploads in \(settings.outputFolder)/). Ctrl+C stops.\n"
                    FileHandle.standardOutput.write(Data(lines.utf8))
                    if openBrowser { Self.openInBrowser(url) }
                }
            } catch {
                failure = error
            }
            done.signal()
        }
        done.wait()
        if let failure {
            Terminal.error("\(failure)")
            throw ExitCode.failure
        }
    }

    /// `xdg-open URL` where there is one; otherwise a note to open it by hand.
    static func openInBrowser(_ url: String) {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/xdg-open" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else {
            Terminal.printErr("serve: no xdg-open here to open a browser; open the address above yourself")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { Terminal.printErr("serve: could not run xdg-open (\(error)); open the address above yourself") }
    }
}
