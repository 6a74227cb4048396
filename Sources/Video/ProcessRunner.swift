import Foundation

/// What a finished (or stopped) program left: its exit status, its output, and whether it was
/// stopped for taking too long.
public struct ProcessOutput: Sendable {
    /// The exit status; -1 when the program was stopped (time limit) or killed by a signal.
    public var status: Int32
    /// Everything it wrote to standard output.
    public var standardOutput: Data
    /// Everything it wrote to standard error (kept for `--verbose` and for error messages).
    public var standardError: String
    /// Whether it was stopped because it ran past its time limit.
    public var timedOut: Bool

    /// The last non-empty line of standard error (ffmpeg's own reason), at most 200 characters.
    public var lastErrorLine: String {
        let line = standardError.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        return String(line.trimmingCharacters(in: .whitespaces).prefix(200))
    }
}

/// Runs a program with arguments (never through a shell), captures its output into temporary
/// files (so a chatty program can never block on a full pipe), and stops it at a time limit:
/// `SIGTERM`, then `SIGKILL` two seconds later.
///
/// A program never outlives cascade: on Linux it is started through util-linux's `setpriv
/// --pdeathsig KILL`, which sets the kernel's parent-death signal (`PR_SET_PDEATHSIG`) and then
/// execs the program (same process, same id). When cascade ends in any way (Ctrl-C, `kill`,
/// `kill -9`, a crash), the kernel kills every program it was running; nothing in cascade has
/// to run for that, which no signal handler can promise for `SIGKILL`. (Ctrl-C, `SIGTERM` and
/// `SIGHUP` are handled: ``Interruption`` kills the running programs itself before the build
/// ends, so that it can remove its temporary files after them.) Foundation's `Process`
/// cannot set that signal itself (it has no hook between fork and exec), hence the wrapper;
/// and since it starts each program in a process group of its own, not even a terminal's
/// Ctrl-C reaches them otherwise. The signal comes when the *thread* that started the program
/// ends: ``run(_:_:timeout:)`` starts it and waits for it on the calling thread, so that thread
/// outlives it. Without `setpriv` (not Linux), programs are started directly and may outlive
/// a killed cascade (until they finish).
public enum ProcessRunner {
    /// `setpriv` when the system has it (Linux: util-linux is part of every Debian and Ubuntu).
    static let deathSignalWrapper: String? = {
        #if os(Linux)
        return ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
        #else
        return nil
        #endif
    }()

    /// The program and arguments that start `executable`: through ``deathSignalWrapper`` when
    /// there is one.
    static func command(_ executable: String, _ arguments: [String]) -> (executable: String, arguments: [String]) {
        guard let wrapper = deathSignalWrapper else { return (executable, arguments) }
        return (wrapper, ["--pdeathsig", "KILL", "--", executable] + arguments)
    }

    /// Runs `executable` with `arguments`; `timeout` in seconds. `input`, an open descriptor,
    /// becomes the program's standard input (a video opened and checked by ``VideoInput``,
    /// which ffmpeg reads as `/dev/stdin`); without it the program reads `/dev/null`.
    public static func run(_ executable: String, _ arguments: [String], input: Int32? = nil, timeout: Double) throws(VideoError) -> ProcessOutput {
        Interruption.parkIfInterrupted()
        let tool = (executable as NSString).lastPathComponent
        // Checked here: through the wrapper, a missing program would only be the wrapper's exit status.
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw .toolFailed(tool: tool, reason: "cannot be started: \(executable) is not an executable file")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cascade-run-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .toolFailed(tool: (executable as NSString).lastPathComponent, reason: "cannot make a temporary folder: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out")
        let errURL = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        let command = Self.command(executable, arguments)
        process.executableURL = URL(fileURLWithPath: command.executable)
        process.arguments = command.arguments
        process.standardInput = input.map { FileHandle(fileDescriptor: $0, closeOnDealloc: false) } ?? FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        do {
            let out = try FileHandle(forWritingTo: outURL)
            let err = try FileHandle(forWritingTo: errURL)
            defer { try? out.close(); try? err.close() }
            process.standardOutput = out
            process.standardError = err
            try process.run()
        } catch {
            throw .toolFailed(tool: tool, reason: "cannot be started: \(error.localizedDescription)")
        }
        // An interruption kills the program (see ``Interruption``) and this thread waits for the
        // process's end instead of reporting the program as failed.
        let child = process.processIdentifier
        if !Interruption.adopt(child) {
            done.wait()
            Interruption.parkIfInterrupted()
        }
        var timedOut = false
        if done.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGTERM)
            if done.wait(timeout: .now() + 2) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                done.wait()
            }
        }
        process.waitUntilExit()
        Interruption.release(child)
        Interruption.parkIfInterrupted()
        let output = (try? Data(contentsOf: outURL)) ?? Data()
        let error = (try? Data(contentsOf: errURL)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let status = timedOut || process.terminationReason == .uncaughtSignal ? -1 : process.terminationStatus
        return ProcessOutput(status: status, standardOutput: output, standardError: error, timedOut: timedOut)
    }
}
