import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The recipes of docs/cluster/ under their own engines, on this machine: a one-node Slurm
/// (munged, slurmctld, slurmd) runs `slurm-array.sh` itself, and an sshd on a loopback port runs
/// the README's `parallel --sshlogin` line. Every daemon runs on a throwaway configuration under
/// the test's temporary folder, on free loopback ports, and is stopped by its pid when the test
/// ends, passed or failed. (The container's runtime is checked by `make test-cluster`:
/// scripts/container-check.sh.)
@Suite(.serialized) struct ClusterTests {
    static let slurmTools = ["/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd",
                             "/usr/bin/sbatch", "/usr/bin/srun", "/usr/bin/sinfo", "/usr/bin/scancel"]
    static let sshTools = ["/usr/sbin/sshd", "/usr/bin/ssh", "/usr/bin/ssh-keygen", "/usr/bin/parallel"]
    static var hasSlurm: Bool { slurmTools.allSatisfy(FileManager.default.isExecutableFile) }
    static var hasSSH: Bool { sshTools.allSatisfy(FileManager.default.isExecutableFile) }

    let fm = FileManager.default

    struct SetupError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The repository's docs/cluster/.
    var recipes: String { TestAssets.root.appendingPathComponent("docs/cluster").path }

    /// Daemons this test started: each stopped by its pid (SIGTERM, then SIGKILL after a few
    /// seconds), in the reverse order of their start.
    final class Daemons {
        var started: [(name: String, process: ChildProcess)] = []

        /// Starts `command` (a shell line ending in `exec` of the daemon, so the pid is the daemon's).
        func start(_ name: String, _ command: String, environment: [String: String]? = nil) throws {
            started.append((name, try ChildProcess("/bin/sh", ["-c", command], environment: environment, output: .null, error: .null)))
        }

        /// The names of daemons that have already ended.
        var ended: [String] { started.filter { !$0.process.isRunning }.map(\.name) }

        func stop() {
            for (_, process) in started.reversed() where process.isRunning { kill(process.pid, SIGTERM) }
            let deadline = Date().addingTimeInterval(10)
            for (name, process) in started.reversed() {
                while process.isRunning && Date() < deadline { usleep(50_000) }
                if process.isRunning {
                    FileHandle.standardError.write(Data("test: \(name) (\(process.pid)) ignored SIGTERM: killed\n".utf8))
                    process.signal(SIGKILL)
                }
                process.wait(timeout: 10)
            }
            started = []
        }
    }

    /// `count` loopback ports nobody listens on now (held together while chosen, so they differ).
    static func freePorts(_ count: Int) throws -> [Int] {
        var sockets: [Int32] = [], ports: [Int] = []
        defer { sockets.forEach { close($0) } }
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw SetupError( "socket: \(String(cString: strerror(errno)))") }
            sockets.append(fd)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            guard bound else { throw SetupError( "bind: \(String(cString: strerror(errno)))") }
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }

    /// Waits (at most `seconds`) until something accepts connections on 127.0.0.1:`port`.
    static func waitForListener(_ port: Int, seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            close(fd)
            if connected { return true }
            usleep(100_000)
        }
        return false
    }

    /// Runs a program to its end (at most `timeout` seconds): its status and its output and errors together.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    directory: String? = nil, timeout: TimeInterval = 60) throws -> (status: Int32, output: String) {
        let child = try ChildProcess(executable, arguments, environment: environment, directory: directory)
        let (status, out, err) = child.outputs(timeout: timeout)
        return (status, String(decoding: out, as: UTF8.self) + String(decoding: err, as: UTF8.self))
    }

    static var userName: String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return "root" }
        return String(cString: name)
    }

    /// The last lines of each file, for a failure's message.
    func tails(_ files: [String]) -> String {
        files.map { file in
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? "(none)"
            return "== \(file)\n" + text.split(separator: "\n").suffix(15).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// One `batch` run over the photos: the results the cluster runs must equal, byte for byte.
    func oneRun(_ inputs: String) throws -> [String: Data] {
        let single = try TestAssets.temporaryFolder("cluster-one")
        let one = try CLIRunner.run(["batch", inputs, "-r", "--out", single, "--jobs", "2"])
        #expect(one.status == 0, "\(one.stderr)")
        let expected = try ShardedBatchTests().results(single)
        #expect(expected.count == 14)
        return expected
    }

    /// A one-node Slurm on this machine runs docs/cluster/slurm-array.sh itself as a 3-task array
    /// (`sbatch --array=1-3`, the only change from the shipped file, and its folders given by
    /// environment); report-merge sums the three reports; the sketches equal one `batch` run.
    @Test(.enabled(if: ClusterTests.hasSlurm, "skipped: no slurm (scripts/setup.sh test-tools could not install slurm-wlm and munge)"))
    func slurmArrayRunsTheShippedScript() throws {
        let inputs = try ShardedBatchTests().photos()
        let expected = try oneRun(inputs)
        let root = try TestAssets.temporaryFolder("slurm")
        for folder in ["munge", "state", "spool", "log", "work", "out", "reports"] {
            try fm.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        try fm.setAttributes([.posixPermissions: 0o700], ofItemAtPath: root + "/munge")
        // munge's key: 1 KB of random bytes, readable by its owner only.
        let key = Data((0..<1024).map { _ in UInt8.random(in: 0...255) })
        try key.write(to: URL(fileURLWithPath: root + "/munge/key"))
        try fm.setAttributes([.posixPermissions: 0o600], ofItemAtPath: root + "/munge/key")

        let ports = try Self.freePorts(2)
        // The controller and the node are both "localhost": whatever the machine's own name resolves
        // to, the daemons listen on the loopback address only (NoInAddrAny, NoCtldInAddrAny).
        let user = Self.userName
        let memoryMB = ((try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? "")
            .split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { Int($0.split(separator: " ")[1]) }.map { $0 / 1024 * 9 / 10 } ?? 2048
        let socket = root + "/munge/socket"
        let conf = root + "/slurm.conf"
        try """
            ClusterName=sketchease-test
            SlurmctldHost=localhost
            SlurmctldPort=\(ports[0])
            SlurmdPort=\(ports[1])
            SlurmUser=\(user)
            SlurmdUser=\(user)
            AuthType=auth/munge
            CredType=cred/munge
            AuthInfo=socket=\(socket)
            StateSaveLocation=\(root)/state
            SlurmdSpoolDir=\(root)/spool
            SlurmctldPidFile=\(root)/slurmctld.pid
            SlurmdPidFile=\(root)/slurmd.pid
            SlurmctldLogFile=\(root)/log/slurmctld.log
            SlurmdLogFile=\(root)/log/slurmd.log
            ProctrackType=proctrack/linuxproc
            TaskPlugin=task/none
            JobAcctGatherType=jobacct_gather/none
            AccountingStorageType=accounting_storage/none
            SelectType=select/cons_tres
            SelectTypeParameters=CR_CPU_Memory
            MpiDefault=none
            ReturnToService=2
            CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
            NodeName=localhost CPUs=\(ProcessInfo.processInfo.activeProcessorCount) RealMemory=\(memoryMB) State=UNKNOWN
            PartitionName=sketchease Nodes=ALL Default=YES MaxTime=60 State=UP

            """.write(toFile: conf, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["SLURM_CONF"] = conf
        let logs = [root + "/munge/log", root + "/log/slurmctld.log", root + "/log/slurmd.log"]

        let daemons = Daemons()
        defer {
            // Whatever is left of the array goes first, then the daemons, by pid.
            _ = try? Self.run("/usr/bin/scancel", ["--partition=sketchease"], environment: environment, timeout: 20)
            daemons.stop()
        }
        try daemons.start("munged", "exec /usr/sbin/munged --foreground --force --key-file=\(root)/munge/key --socket=\(socket)"
                          + " --pid-file=\(root)/munge/pid --seed-file=\(root)/munge/seed --log-file=\(root)/munge/log")
        let deadline = Date().addingTimeInterval(20)
        while !fm.fileExists(atPath: socket), Date() < deadline { usleep(50_000) }
        try #require(fm.fileExists(atPath: socket), "munged did not start: \(tails(logs))")
        try daemons.start("slurmctld", "exec /usr/sbin/slurmctld -D -i -f '\(conf)'", environment: environment)
        try daemons.start("slurmd", "exec /usr/sbin/slurmd -D -N localhost -f '\(conf)'", environment: environment)

        // The node is up once sinfo calls it idle.
        var state = ""
        let upBy = Date().addingTimeInterval(60)
        while Date() < upBy, daemons.ended.isEmpty {
            state = (try? Self.run("/usr/bin/sinfo", ["-h", "-o", "%t"], environment: environment, timeout: 20))?.output
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            if state == "idle" { break }
            usleep(250_000)
        }
        try #require(state == "idle", "the node is '\(state)'; ended: \(daemons.ended)\n\(tails(logs))")

        // The shipped script, submitted as it is: the folders come from the environment sbatch passes on.
        var job = environment
        job["SKETCHEASE_PHOTOS"] = inputs
        job["SKETCHEASE_SKETCHES"] = root + "/out"
        job["SKETCHEASE_REPORTS"] = root + "/reports"
        job["SKETCHEASE_COMMAND"] = CLIRunner.executable
        job["SKETCHEASE_MODEL"] = TestAssets.model
        let submitted = try Self.run("/usr/bin/sbatch", ["--wait", "--array=1-3", recipes + "/slurm-array.sh"],
                                     environment: job, directory: root + "/work", timeout: 300)
        let taskLogs = (try? fm.contentsOfDirectory(atPath: root + "/work").sorted().map { root + "/work/" + $0 }) ?? []
        #expect(submitted.status == 0, "\(submitted.output)\n\(tails(taskLogs + logs))")
        #expect(taskLogs.count == 3, "one log per task (sketchease-%A_%a.log): \(taskLogs)")
        #expect(taskLogs.allSatisfy { $0.hasSuffix(".log") && ($0 as NSString).lastPathComponent.hasPrefix("sketchease-") })

        let reports = (1...3).map { root + "/reports/shard-\($0).json" }
        let merged = try CLIRunner.run(["report-merge"] + reports)
        #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
        #expect(merged.stdout.hasPrefix("14 written (3 reports, shards 1/3, 2/3, 3/3)"), "\(merged.stdout)")
        #expect(try ShardedBatchTests().results(root + "/out") == expected, "the array's sketches equal one run's")
        #expect(daemons.ended.isEmpty, "a daemon ended early: \(daemons.ended)\n\(tails(logs))")
    }

    /// The README's GNU parallel line, over ssh: an sshd on a free loopback port with a host key
    /// and an authorised key made here; host1, host2 and host3 of the line are that sshd (aliases
    /// in the ssh configuration parallel is given), so three shards go out over ssh; then the
    /// README's report-merge line. The sketches equal one `batch` run.
    @Test(.enabled(if: ClusterTests.hasSSH, "skipped: no sshd (scripts/setup.sh test-tools could not install openssh-server and parallel)"))
    func parallelOverSSHRunsTheReadmeLine() throws {
        let inputs = try ShardedBatchTests().photos()
        let expected = try oneRun(inputs)
        let root = try TestAssets.temporaryFolder("ssh")
        for folder in ["out", "reports"] { try fm.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true) }
        for (file, type) in [("host_key", "ed25519"), ("client_key", "ed25519")] {
            let made = try Self.run("/usr/bin/ssh-keygen", ["-q", "-t", type, "-N", "", "-C", "sketchease-test", "-f", root + "/" + file])
            try #require(made.status == 0, "\(made.output)")
        }
        try fm.copyItem(atPath: root + "/client_key.pub", toPath: root + "/authorized_keys")
        let hostKey = try String(contentsOfFile: root + "/host_key.pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        try "sketchease-test \(hostKey)\n".write(toFile: root + "/known_hosts", atomically: true, encoding: .utf8)
        let port = try Self.freePorts(1)[0]
        let user = Self.userName
        try """
            ListenAddress 127.0.0.1
            Port \(port)
            HostKey \(root)/host_key
            PidFile \(root)/sshd.pid
            AuthorizedKeysFile \(root)/authorized_keys
            AuthenticationMethods publickey
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            UsePAM no
            PermitRootLogin prohibit-password
            AllowUsers \(user)
            StrictModes no
            AcceptEnv SKETCHEASE_MODEL
            X11Forwarding no
            AllowTcpForwarding no

            """.write(toFile: root + "/sshd_config", atomically: true, encoding: .utf8)
        // The client side: host1…host3 are this sshd, known by its throwaway key only.
        try ["host1", "host2", "host3"].map { alias in
            """
            Host \(alias)
                HostName 127.0.0.1
                Port \(port)
                User \(user)
                IdentityFile \(root)/client_key
                IdentitiesOnly yes
                HostKeyAlias sketchease-test
                UserKnownHostsFile \(root)/known_hosts
                GlobalKnownHostsFile /dev/null
                StrictHostKeyChecking yes
                BatchMode yes
                LogLevel ERROR
                SendEnv SKETCHEASE_MODEL

            """
        }.joined().write(toFile: root + "/ssh_config", atomically: true, encoding: .utf8)
        // sshd run as root insists on its privilege-separation folder (made at boot by the package).
        if geteuid() == 0, !fm.fileExists(atPath: "/run/sshd") {
            try fm.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        }

        let daemons = Daemons()
        defer { daemons.stop() }
        try daemons.start("sshd", "exec /usr/sbin/sshd -D -e -f '\(root)/sshd_config' 2>'\(root)/sshd.log'")
        try #require(Self.waitForListener(port, seconds: 20), "sshd is not listening: \(tails([root + "/sshd.log"]))")

        // The README's two lines, with this test's folders and binary in place of /nfs/… and `sketchease`.
        let readme = try String(contentsOfFile: recipes + "/README.md", encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        #expect(block.contains("parallel --sshlogin host1,host2,host3 --jobs 1"), "\(block)")
        let script = block.replacingOccurrences(of: "\\\n", with: " ")
            .replacingOccurrences(of: "/nfs/photos", with: inputs)
            .replacingOccurrences(of: "/nfs/sketches", with: root + "/out")
            .replacingOccurrences(of: "/nfs/reports", with: root + "/reports")
            .replacingOccurrences(of: "sketchease ", with: CLIRunner.executable + " ")
        var environment = ProcessInfo.processInfo.environment
        environment["SKETCHEASE_MODEL"] = TestAssets.model
        environment["PARALLEL_SSH"] = "ssh -F \(root)/ssh_config"
        environment["PARALLEL_HOME"] = root + "/parallel-home"
        let ran = try Self.run("/bin/sh", ["-c", "set -e\n" + script], environment: environment, timeout: 300)
        #expect(ran.status == 0, "\(script)\n\(ran.output)\n\(tails([root + "/sshd.log"]))")
        #expect(ran.output.contains("14 written (3 reports, shards 1/3, 2/3, 3/3)"), "\(ran.output)")
        #expect(try ShardedBatchTests().results(root + "/out") == expected, "the three ssh shards' sketches equal one run's")
        // They came over ssh: sshd logged three (or more) sessions accepted with the test's key.
        let sshdLog = (try? String(contentsOfFile: root + "/sshd.log", encoding: .utf8)) ?? ""
        #expect(sshdLog.components(separatedBy: "Accepted publickey for \(user)").count - 1 >= 3, "\(sshdLog)")
        #expect(daemons.ended.isEmpty, "sshd ended early: \(tails([root + "/sshd.log"]))")
    }
}
