#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The memory of one picture's pixels, in one piece: `count` 32-bit gd pixels, row after row.
/// The one owner of that memory, released with the value.
///
/// gd keeps each row of a truecolor image in an allocation of its own, so TurboJPEG (which
/// writes whole pictures with a fixed row pitch) could only decode into a separate buffer that
/// was then copied, both held at once. An ``Image`` whose rows point into a block is decoded
/// into directly.
///
/// Large blocks are mapped from the kernel (and asked for huge pages, so filling them costs a
/// few page faults rather than one per 4 KiB) and returned to it when released: a photo's
/// pictures never stay behind in the allocator's heaps, where freed memory of one worker was
/// counted against the process's peak while the next photo's went elsewhere.
struct PixelBlock: ~Copyable {
    /// The first pixel; rows follow each other without gaps.
    let base: UnsafeMutablePointer<Int32>
    /// The size of the mapping, or 0 when the block came from `malloc`.
    private let mappedBytes: Int

    /// Blocks from this size up are mapped; smaller ones come from `malloc`.
    static let mappingThreshold = 1 << 20
    private static let hugePage = 2 << 20

    /// Memory for `count` pixels; zeroed (opaque black) when `zeroed`, else with whatever was
    /// there (for pictures that are written whole). Nil when there is no memory to be had.
    init?(count: Int, zeroed: Bool) {
        let (bytes, overflow) = max(1, count).multipliedReportingOverflow(by: MemoryLayout<Int32>.stride)
        guard !overflow else { return nil }
        if bytes < Self.mappingThreshold {
            guard let memory = zeroed ? calloc(1, bytes) : malloc(bytes) else { return nil }
            base = memory.bindMemory(to: Int32.self, capacity: max(1, count))
            mappedBytes = 0
            return
        }
        let length = (bytes + Self.hugePage - 1) / Self.hugePage * Self.hugePage
        if let reused = MappedBlocks.take(atLeast: length) {
            if zeroed { memset(reused.base, 0, bytes) }
            base = reused.base.bindMemory(to: Int32.self, capacity: count)
            mappedBytes = reused.length
            return
        }
        // Fresh mapped memory reads as zeros: `zeroed` costs nothing more. Rounded up to whole
        // huge pages so the kernel can back all of it with them.
        guard let memory = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            memory != UnsafeMutableRawPointer(bitPattern: -1)  // MAP_FAILED
        else { return nil }
        _ = madvise(memory, length, MADV_HUGEPAGE)  // advice only: 4 KiB pages if refused
        base = memory.bindMemory(to: Int32.self, capacity: count)
        mappedBytes = length
    }

    deinit {
        if mappedBytes > 0 {
            MappedBlocks.give(MappedBlocks.Block(base: UnsafeMutableRawPointer(base), length: mappedBytes))
        } else {
            free(base)
        }
    }
}

/// The last few mapped blocks let go of, kept for the next pictures: the kernel clears every
/// page of a fresh mapping (perf: `clear_page_erms`, 7% of a build's time when each picture had
/// its own), while a kept block is written over as it is. At most two are kept (a worker's
/// decoded picture and its largest image are alive at once, and let go of one after the
/// other); a block taken for a smaller picture first gives its pages beyond that picture back,
/// and blocks too small for a request are unmapped, so what is kept never adds more than those
/// two blocks to what the pictures in use need. A build lets go of them when its images are
/// made (``PixelMemory/releaseKept()``).
enum MappedBlocks {
    struct Block: @unchecked Sendable {  // addresses only; each block has one owner at a time
        let base: UnsafeMutableRawPointer
        let length: Int
    }

    private static let limit = 2
    private static let kept = Mutex<[Block]>([])

    /// A kept block of at least `length` bytes (the smallest such), or nil; the kept blocks that
    /// are smaller are unmapped then.
    static func take(atLeast length: Int) -> Block? {
        let (found, tooSmall) = kept.withLock { blocks -> (Block?, [Block]) in
            if let index = blocks.indices.filter({ blocks[$0].length >= length }).min(by: { blocks[$0].length < blocks[$1].length }) {
                return (blocks.remove(at: index), [])
            }
            defer { blocks.removeAll() }
            return (nil, blocks)
        }
        for block in tooSmall { munmap(block.base, block.length) }
        guard let found else { return nil }
        if found.length > length {  // pages past the picture go back to the kernel
            _ = madvise(found.base + length, found.length - length, MADV_DONTNEED)
        }
        return found
    }

    /// Unmaps every kept block.
    static func releaseAll() {
        let blocks = kept.withLock { blocks in
            defer { blocks.removeAll() }
            return blocks
        }
        for block in blocks { munmap(block.base, block.length) }
    }

    /// Keeps `block` for a later picture, or unmaps it when enough are kept.
    static func give(_ block: Block) {
        let keptIt = kept.withLock { blocks in
            guard blocks.count < limit else { return false }
            blocks.append(block)
            return true
        }
        if !keptIt { munmap(block.base, block.length) }
    }
}

/// The memory decoded and scaled pictures leave behind for the next ones (see ``MappedBlocks``).
public enum PixelMemory {
    /// Gives the memory kept for the next pictures back to the system: for when no more photos
    /// are to be made for a while (the end of a build's image stage, so a preview server that
    /// goes on running does not hold it).
    public static func releaseKept() { MappedBlocks.releaseAll() }
}
