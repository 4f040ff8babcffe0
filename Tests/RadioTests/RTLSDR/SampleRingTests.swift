import Demod
import Foundation
import Testing
@testable import Radio

@Suite("SampleRing")
struct SampleRingTests {
    /// `count` bytes numbered from `start` (mod 256), so every block's origin is visible.
    private func ramp(_ start: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: start + $0) } }

    private func produce(_ ring: SampleRing, _ bytes: [UInt8]) { bytes.withUnsafeBytes { ring.produce($0) } }

    @Test("blocks come out in order with consecutive firstSample while there is room")
    func inOrder() throws {
        let ring = SampleRing(blocks: 4, blockBytes: 8)
        for k in 0..<3 { produce(ring, ramp(8 * k, 8)) }
        for k in 0..<3 {
            let block = try #require(try ring.take())
            #expect(block.firstSample == UInt64(4 * k))
            #expect(block.bytes == ramp(8 * k, 8))
            #expect(block.format == .uc8)
        }
        #expect(ring.samplesDropped == 0)
        #expect(ring.poll() == nil)
    }

    @Test("a full ring drops whole incoming blocks, counts their samples, and firstSample skips them")
    func dropsWhenFull() throws {
        let ring = SampleRing(blocks: 3, blockBytes: 8)
        for k in 0..<7 { produce(ring, ramp(8 * k, 8)) }   // blocks 0-2 stored, 3-6 dropped
        #expect(ring.samplesDropped == 4 * 4)
        #expect(ring.blocksDropped == 4)
        let firsts = try (0..<3).map { _ in try #require(try ring.take()).firstSample }
        #expect(firsts == [0, 4, 8])
        produce(ring, ramp(56, 8))                         // block 7: two slots free again
        let next = try #require(try ring.take())
        #expect(next.firstSample == 28)
        #expect(next.bytes == ramp(56, 8))
    }

    @Test("the block lent to the consumer is never overwritten: one slot less while it is held")
    func lentSlotIsProtected() throws {
        let ring = SampleRing(blocks: 2, blockBytes: 4)
        produce(ring, ramp(0, 4))
        let first = try #require(try ring.take())        // slot 0 lent
        produce(ring, ramp(4, 4))                          // slot 1
        produce(ring, ramp(8, 4))                          // no free slot: dropped
        #expect(ring.samplesDropped == 2)
        #expect(first.bytes == ramp(0, 4))
        let second = try #require(try ring.take())       // releases slot 0
        #expect(second.firstSample == 2)
        produce(ring, ramp(12, 4))                         // into slot 0
        #expect(first.bytes == ramp(0, 4))
        let third = try #require(try ring.take())
        #expect(third.firstSample == 6)
        #expect(third.bytes == ramp(12, 4))
    }

    @Test("a block the consumer keeps is copied on the consumer's side, so the slot is unshared again")
    func keptBlockIsUnsharedOnRelease() throws {
        let ring = SampleRing(blocks: 2, blockBytes: 4)
        produce(ring, ramp(0, 4))
        let kept = try #require(try ring.take())
        let keptAddress = kept.bytes.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        #expect(keptAddress == ring.slotAddress(0))        // handed out without a copy
        produce(ring, ramp(4, 4))
        _ = try #require(try ring.take())                  // releases slot 0
        #expect(ring.slotAddress(0) != keptAddress)        // the slot got its own bytes back
        produce(ring, ramp(8, 4))
        #expect(kept.bytes == ramp(0, 4))
    }

    @Test("in steady state the producer writes into the same preallocated slots (no copy, no reallocation)")
    func slotsReusedInPlace() throws {
        let ring = SampleRing(blocks: 3, blockBytes: 4096)
        let addresses = (0..<3).map { ring.slotAddress($0) }
        let usb = [UInt8](repeating: 0x55, count: 4096)
        for k in 0..<300 {
            produce(ring, usb)
            let block = try #require(try ring.take())
            #expect(block.firstSample == UInt64(k) * 2048)
        }
        #expect((0..<3).map { ring.slotAddress($0) } == addresses)
    }

    @Test("a USB buffer longer than a slot fills several slots; a trailing half sample is ignored")
    func splitsLongBuffers() throws {
        let ring = SampleRing(blocks: 4, blockBytes: 6)
        produce(ring, ramp(0, 15))                         // 7 whole samples: 3 + 3 + 1
        let blocks = try (0..<3).map { _ in try #require(try ring.take()) }
        #expect(blocks.map(\.firstSample) == [0, 3, 6])
        #expect(blocks.map(\.bytes.count) == [6, 6, 2])
        #expect(blocks.flatMap(\.bytes) == ramp(0, 14))
        produce(ring, ramp(20, 2))
        #expect(try ring.take()?.firstSample == 7)
    }

    @Test("skip moves firstSample forward without counting drops")
    func skipIsNotADrop() throws {
        let ring = SampleRing(blocks: 2, blockBytes: 4)
        produce(ring, ramp(0, 4))
        ring.skip(samples: 1000)
        produce(ring, ramp(4, 4))
        #expect(try ring.take()?.firstSample == 0)
        #expect(try ring.take()?.firstSample == 1002)
        #expect(ring.samplesDropped == 0)
    }

    @Test("after finish the consumer drains the ring, then gets nil, or the finishing error")
    func finishDrains() throws {
        let ring = SampleRing(blocks: 3, blockBytes: 4)
        produce(ring, ramp(0, 4))
        ring.finish()
        #expect(try ring.take() != nil)
        #expect(try ring.take() == nil)
        #expect(try ring.take() == nil)

        let failing = SampleRing(blocks: 3, blockBytes: 4)
        produce(failing, ramp(0, 4))
        failing.finish(error: .message("gone"))
        #expect(try failing.take() != nil)
        #expect(throws: SampleSourceError.message("gone")) { try failing.take() }
    }

    @Test("take waits for a block produced later on another thread")
    func takeWaits() throws {
        let ring = SampleRing(blocks: 2, blockBytes: 4)
        let producer = try JoinableThread(name: "test-producer") {
            Thread.sleep(forTimeInterval: 0.02)
            ramp4.withUnsafeBytes { ring.produce($0) }
        }
        let block = try #require(try ring.take())
        producer.join()
        #expect(block.bytes == ramp4)
    }
}

private let ramp4: [UInt8] = [9, 8, 7, 6]
