import Foundation

/// nginx (Debian package `nginx-light`) serving a folder on a loopback port: the reference
/// the HTTP goals are stated against. It runs in the foreground as a child process,
/// with its configuration, logs and pid file in `workDirectory`, and is stopped by `stop()`
/// or when released.
public final class NginxReference {
    public let port: UInt16
    private let process: Process

    /// Starts nginx serving `root` with `workers` worker processes and keep-alive connections
    /// that are not recycled during a run (as the server under test does not recycle them).
    public init(root: URL, workDirectory: URL, workers: Int) throws {
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        port = try freeLoopbackPort()
        // Started by root, nginx's workers would switch to www-data, which may not be allowed
        // into the checkout (a home folder); they stay root, serving loopback only.
        let user = geteuid() == 0 ? "user root;" : ""
        let configuration = """
            \(user)
            daemon off;
            worker_processes \(workers);
            pid \(workDirectory.path)/nginx.pid;
            error_log \(workDirectory.path)/error.log warn;
            events { worker_connections 4096; }
            http {
                access_log off;
                types { application/json json; }
                keepalive_requests 10000000;
                client_body_temp_path \(workDirectory.path)/body;
                server {
                    listen 127.0.0.1:\(port);
                    root \(root.path);
                }
            }
            """
        let configurationFile = workDirectory.appendingPathComponent("nginx.conf")
        try configuration.write(to: configurationFile, atomically: true, encoding: .utf8)

        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-p", workDirectory.path, "-c", configurationFile.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") else {
            throw BenchmarkError("nginx is not installed: run scripts/bootstrap --bench")
        }
        try process.run()
        guard waitUntilListening(port: port, timeout: .seconds(5)) else {
            stop()
            let log = (try? String(contentsOf: workDirectory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            throw BenchmarkError("nginx did not start listening on \(port):\n\(log)")
        }
    }

    public func stop() {
        guard process.isRunning else { return }
        // SIGQUIT is nginx's graceful shutdown; its workers exit with the master.
        kill(process.processIdentifier, SIGQUIT)
        process.waitUntilExit()
    }

    deinit {
        stop()
    }
}
