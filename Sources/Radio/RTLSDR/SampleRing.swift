import Demod
import Dispatch
import Synchronization

/// A single-producer, single-consumer ring of preallocated sample blocks between the capture
/// thread (which writes USB buffers into it) and the demodulator (which reads blocks out).
///
/// The producer never blocks and never allocates: it copies into a free slot's bytes and
/// publishes the slot with an atomic counter; with no free slot the whole incoming block is
/// dropped and counted, and the sample counter still advances so the next block's
/// `firstSample` stays exact. The consumer takes published slots in order and waits on a
/// semaphore when there are none.
///
/// The block handed out shares the slot's bytes (no copy); the slot goes back to the producer
/// when the consumer asks for the next block. If the consumer still holds the old block then,
/// the consumer thread makes the slot's bytes unique again (copy-on-write happens there, never
/// on the capture thread).
final class SampleRing: @unchecked Sendable {
    /// One preallocated block. Owned by the producer until published, by the consumer until
    /// released; the atomic counters hand it over (release/acquire).
    final class Slot {
        var bytes: [UInt8]
        var count = 0
        var firstSample: UInt64 = 0
        init(capacity: Int) { bytes = [UInt8](repeating: 0, count: capacity) }
    }

    let format: SampleFormat
    /// Bytes per slot: the largest block handed out.
    let blockBytes: Int
    private let slots: [Slot]
    /// Blocks published by the producer (only the producer writes it).
    private let published = Atomic<Int>(0)
    /// Blocks released by the consumer (only the consumer writes it).
    private let released = Atomic<Int>(0)
    private let dropped = Atomic<UInt64>(0)
    private let droppedBlockCount = Atomic<Int>(0)
    private let finished = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)

    // Producer-only state.
    private var nextSample: UInt64 = 0
    // Consumer-only state.
    private var lent = false
    // Written by the producer before `finished` is set, read by the consumer after.
    private var finishError: SampleSourceError?

    /// `blocks` slots of `blockBytes` bytes each (rounded down to whole samples), all
    /// allocated now.
    init(blocks: Int, blockBytes: Int, format: SampleFormat = .uc8) {
        self.format = format
        let whole = max(format.bytesPerSample, blockBytes / format.bytesPerSample * format.bytesPerSample)
        self.blockBytes = whole
        slots = (0..<max(2, blocks)).map { _ in Slot(capacity: whole) }
    }

    /// Number of slots.
    var capacity: Int { slots.count }

    /// Samples dropped because no slot was free.
    var samplesDropped: UInt64 { dropped.load(ordering: .relaxed) }

    /// Blocks (or parts of USB buffers) dropped because no slot was free.
    var blocksDropped: Int { droppedBlockCount.load(ordering: .relaxed) }

    /// Blocks written so far.
    var blocksPublished: Int { published.load(ordering: .relaxed) }

    // MARK: producer (capture thread)

    /// Index the next produced sample will get.
    var producerSampleIndex: UInt64 { nextSample }

    /// Copies `bytes` into free slots (several when longer than a slot). A trailing partial
    /// sample is ignored. Never blocks, never allocates.
    func produce(_ bytes: UnsafeRawBufferPointer) {
        let step = format.bytesPerSample
        let usable = bytes.count - bytes.count % step
        var offset = 0
        while offset < usable {
            let n = min(blockBytes, usable - offset)
            let samples = UInt64(n / step)
            let p = published.load(ordering: .relaxed)
            let r = released.load(ordering: .acquiring)
            if p - r >= slots.count {
                dropped.add(samples, ordering: .relaxed)
                droppedBlockCount.add(1, ordering: .relaxed)
            } else {
                let slot = slots[p % slots.count]
                slot.bytes.withUnsafeMutableBytes { destination in
                    destination.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: n)
                }
                slot.count = n
                slot.firstSample = nextSample
                published.store(p + 1, ordering: .releasing)
                wake.signal()
            }
            nextSample &+= samples
            offset += n
        }
    }

    /// Moves the sample counter forward without data (an outage while the dongle was away),
    /// so later timestamps keep following real time. Not counted as dropped.
    func skip(samples: UInt64) { nextSample &+= samples }

    /// No more blocks will come; the consumer gets what is buffered, then nil (or `error`).
    func finish(error: SampleSourceError? = nil) {
        finishError = error
        finished.store(true, ordering: .releasing)
        wake.signal()
    }

    // MARK: consumer (demodulator thread)

    /// Releases the previous block and returns the next one, waiting for it; nil when the
    /// ring is finished and empty (throws the finishing error, if any).
    func take() throws(SampleSourceError) -> SampleBlock? {
        releaseLent()
        while true {
            let done = finished.load(ordering: .acquiring)
            let r = released.load(ordering: .relaxed)
            let p = published.load(ordering: .acquiring)
            if p > r {
                let slot = slots[r % slots.count]
                lent = true
                let bytes = slot.count == slot.bytes.count ? slot.bytes : Array(slot.bytes[0..<slot.count])
                return SampleBlock(bytes: bytes, format: format, firstSample: slot.firstSample)
            }
            if done {
                if let finishError { throw finishError }
                return nil
            }
            wake.wait()
        }
    }

    /// Non-blocking `take`: nil when nothing is published yet (or finished and empty).
    func poll() -> SampleBlock? {
        releaseLent()
        let r = released.load(ordering: .relaxed)
        let p = published.load(ordering: .acquiring)
        guard p > r else { return nil }
        let slot = slots[r % slots.count]
        lent = true
        let bytes = slot.count == slot.bytes.count ? slot.bytes : Array(slot.bytes[0..<slot.count])
        return SampleBlock(bytes: bytes, format: format, firstSample: slot.firstSample)
    }

    /// Address of slot `i`'s bytes (tests check that a kept block no longer shares them).
    func slotAddress(_ i: Int) -> UInt {
        slots[i % slots.count].bytes.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
    }

    private func releaseLent() {
        guard lent else { return }
        let r = released.load(ordering: .relaxed)
        // Copy-on-write here, on the consumer's thread, if the caller kept the last block.
        slots[r % slots.count].bytes.withUnsafeMutableBytes { _ in }
        lent = false
        released.store(r + 1, ordering: .releasing)
    }
}
