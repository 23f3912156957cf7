import CMalloc
import Foundation

/// The process's malloc settings (glibc; nothing elsewhere), applied first thing in ``SandnetCommand/main()``.
///
/// Measured under the 10-minute soak (Benchmarks/README.md, issue 17): the node's live heap stayed at 24–28 MB while
/// glibc's 16 arenas (one per new thread, up to 8 per core) held 91 MB and kept growing with free space no arena
/// returned; with one arena per core (at least 2) they held 40 MB. That bounds lock contention by the threads that
/// can run at once. glibc fixes the arena limit when the ninth arena would be created, so this runs before the
/// command starts its threads.
enum Allocator {
    static func configure() {
        _ = sandnet_limit_malloc_arenas(Int32(clamping: max(2, ProcessInfo.processInfo.activeProcessorCount)))
    }
}
