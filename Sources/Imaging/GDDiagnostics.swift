import CGD

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One message from libgd or libtiff.
struct Diagnostic: Equatable {
    enum Source: Equatable {
        case gd(priority: Int32)
        case tiffError
        case tiffWarning
    }

    var source: Source
    var text: String

    /// gd's notices and below (such as "Image's color profile is not sRGB") are not problems.
    var isNotice: Bool {
        if case .gd(let priority) = source { return priority >= LOG_NOTICE }
        return source == .tiffWarning
    }
}

/// Collects libgd's (and libtiff's) warnings and errors per thread.
///
/// gd reports problems through one process-wide callback (`gdSetErrorMethod`), and a truncated
/// JPEG comes back as an image with only a warning. The callback runs on the thread that is
/// decoding, so ``capture(_:)`` files messages in a box found through a pthread key: threads
/// never see each other's messages, and no lock is taken. Messages outside a capture are dropped
/// (gd's default would print them to stderr).
enum GDDiagnostics {
    /// Runs `body` and returns its result with the messages reported on this thread meanwhile.
    static func capture<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> (T, [Diagnostic]) {
        _ = handlersInstalled
        let box = MessageBox()
        let previous = pthread_getspecific(messageKey)
        pthread_setspecific(messageKey, Unmanaged.passUnretained(box).toOpaque())
        defer {
            pthread_setspecific(messageKey, previous)
            withExtendedLifetime(box) {}
        }
        let result = try body()
        return (result, box.messages)
    }

    /// Files a message for the capture running on this thread, if any.
    fileprivate static func record(_ source: Diagnostic.Source, format: UnsafePointer<CChar>?, arguments: CVaListPointer?) {
        guard let format, let arguments, let raw = pthread_getspecific(messageKey) else { return }
        let box = Unmanaged<MessageBox>.fromOpaque(raw).takeUnretainedValue()
        guard box.messages.count < 100 else { return }
        var buffer = [CChar](repeating: 0, count: 1024)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let text = ExifReader.cleanText(bytes) ?? ""
        box.messages.append(Diagnostic(source: source, text: text))
    }
}

/// The messages of one capture. Only its own thread touches it.
private final class MessageBox {
    var messages: [Diagnostic] = []
}

/// The thread-specific slot that points at the running capture's box.
private let messageKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "pthread_key_create failed")
    return key
}()

/// Installs the handlers once per process (Swift initialises globals exactly once, thread-safely).
private let handlersInstalled: Void = {
    gdSetErrorMethod { priority, format, arguments in
        GDDiagnostics.record(.gd(priority: priority), format: format, arguments: arguments)
    }
    _ = TIFFSetErrorHandler { _, format, arguments in
        GDDiagnostics.record(.tiffError, format: format, arguments: arguments)
    }
    _ = TIFFSetWarningHandler { _, format, arguments in
        GDDiagnostics.record(.tiffWarning, format: format, arguments: arguments)
    }
}()
