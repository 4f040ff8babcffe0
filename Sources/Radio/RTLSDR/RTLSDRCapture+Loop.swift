import Demod
import Foundation

/// The capture thread, the watchdog thread, dongle setup and recovery.
extension RTLSDRCapture {
    /// Sets up an open dongle: gain, correction, frequency, rate, bias-tee, buffer reset.
    /// `initial`: resolve `options.gain` against the tuner's gains; otherwise reapply the
    /// current gain (snapped again in case the tuner differs). Call with `control` held.
    func configure(_ device: any RTLSDRDeviceHandle, initial: Bool) throws(RTLSDRError) {
        var gains: [Int] = []
        do {
            gains = try device.tunerGains()
        } catch {
            // Without a gain list only the tuner's AGC can work.
            guard options.gain == .tunerAGC || (!initial && gainTenths == nil) else { throw error }
        }
        supported = gains
        if initial {
            switch options.gain {
            case .max: gainTenths = gains.last
            case .decibels(let db): gainTenths = RTLSDRGain.nearest(Int((db * 10).rounded()), in: gains)
            case .auto: gainTenths = AutoGainController.initialGain(in: gains)
            case .tunerAGC: gainTenths = nil
            }
        } else if let current = gainTenths {
            gainTenths = RTLSDRGain.nearest(current, in: gains) ?? current
        }
        if let gain = gainTenths {
            try device.setTunerGainMode(manual: true)
            try device.setTunerGain(tenthsDB: gain)
        } else {
            try device.setTunerGainMode(manual: false)
        }
        // librtlsdr refuses (−2) to set the correction it already has, 0 after opening.
        if options.ppm != 0 { try device.setFrequencyCorrection(ppm: options.ppm) }
        try device.setCenterFrequency(options.centerFrequency)
        try device.setSampleRate(UInt32(options.sampleRate.hertz))
        if options.biasTee { try device.setBiasTee(true) }
        try device.resetBuffer()
    }

    /// The capture thread: stream; when streaming ends without `stop()`, close, reopen with
    /// back-off, and stream again.
    func captureLoop() {
        var attempts = 0           // reopen attempts since the last session that delivered samples
        var finishError: SampleSourceError?
        session: while true {
            control.lock()
            guard !stopRequested, let device = handle else {
                control.unlock()
                break
            }
            streaming = true
            cancelReason = nil
            readStartedAt = clock.now()
            phase = .running
            control.unlock()

            let before = ring.producerSampleIndex
            var readError: RTLSDRError?
            do {
                try device.readAsync(bufferCount: options.usbBufferCount, bufferLength: options.bufferLength, into: sink)
            } catch {
                readError = error
            }

            control.lock()
            streaming = false
            handle = nil
            let reason = cancelReason
            let stopping = stopRequested
            if !stopping {
                phase = .recovering
                recoveringSince = clock.now()
            }
            let name = label
            control.unlock()
            do {
                try device.close()
            } catch {
                log("RTL-SDR: closing dongle \(name) failed: \(error)")
            }
            if stopping { break }

            if ring.producerSampleIndex != before { attempts = 0 }
            switch reason {
            case .stall?: log("RTL-SDR: dongle \(name) closed after the stall; reopening it")
            case .stop?, nil:
                let why = readError.map { ": \($0)" } ?? " (unplugged, or a USB error)"
                log("RTL-SDR: dongle \(name) stopped streaming\(why); reopening it")
            }

            // Reopen the same dongle, waiting longer after each failure.
            while true {
                if let limit = options.maxReopenAttempts, attempts >= limit {
                    finishError = .message("RTL-SDR dongle \(name) did not come back after \(attempts) attempts to reopen it")
                    log("RTL-SDR: giving up on dongle \(name) after \(attempts) attempts")
                    break session
                }
                let delay = options.backoff.delay(attempt: attempts)
                if waitUnlessStopped(delay) { break session }
                attempts += 1
                do {
                    let reopened = try reopen()
                    control.lock()
                    if stopRequested {
                        control.unlock()
                        try? reopened.close()
                        break session
                    }
                    handle = reopened
                    phase = .running
                    recoveryCount += 1
                    let away = recoveringSince.map { clock.now() &- $0 } ?? 0
                    recoveringSince = nil
                    let count = recoveryCount
                    control.unlock()
                    skipOutage()
                    log("RTL-SDR: dongle \(name) is back after \(Self.seconds(away)) s (recovery \(count)); capture continues")
                    break
                } catch {
                    let next = options.backoff.delay(attempt: attempts)
                    log("RTL-SDR: reopening dongle \(name) failed: \(describe(error)); next try in \(Self.seconds(next.nanoseconds)) s")
                }
            }
        }
        control.lock()
        streaming = false
        phase = .finished
        if let leftover = handle {
            handle = nil
            try? leftover.close()
        }
        control.broadcast()
        control.unlock()
        ring.finish(error: finishError)
    }

    /// Opens the dongle again (by serial when it has a unique one) and sets it up.
    func reopen() throws(RTLSDRError) -> any RTLSDRDeviceHandle {
        control.lock()
        let serial = reopenSerial
        let index = dongle?.index ?? 0
        control.unlock()
        let found = try serial.map { (s) throws(RTLSDRError) in try driver.index(serial: s) } ?? index
        let device = try driver.open(index: found)
        control.lock()
        defer { control.unlock() }
        do {
            try configure(device, initial: false)
        } catch {
            try? device.close()
            throw error
        }
        dongle?.index = found
        return device
    }

    /// Moves the sample counter over the time the dongle was silent, so timestamps keep
    /// following real time. Runs on the capture thread while nothing streams.
    func skipOutage() {
        let last = sink.lastSampleAt.load(ordering: .relaxed)
        guard last > 0 else { return }
        let gap = clock.now() &- last
        let samples = Double(gap) * Double(sampleRate.hertz) / 1e9
        if samples.isFinite, samples > 0, samples < 1.8e19 { ring.skip(samples: UInt64(samples.rounded())) }
    }

    /// Sleeps `delay` unless `stop()` comes first; true when stopping.
    func waitUnlessStopped(_ delay: Duration) -> Bool {
        control.lock()
        defer { control.unlock() }
        let deadline = Date(timeIntervalSinceNow: delay.seconds)
        while !stopRequested {
            if !control.wait(until: deadline) { break }
        }
        return stopRequested
    }

    /// The watchdog thread: look every `interval` until stopped.
    func watchdogLoop(every interval: Duration) {
        while true {
            control.lock()
            if !stopRequested && phase != .finished {
                _ = control.wait(until: Date(timeIntervalSinceNow: interval.seconds))
            }
            let done = stopRequested || phase == .finished
            control.unlock()
            if done { return }
            checkWatchdog()
        }
    }

    /// A reopen failure in words: "not plugged in" for serial lookups, else the error.
    func describe(_ error: RTLSDRError) -> String {
        if error.function == "rtlsdr_get_index_by_serial", error.code == -2 || error.code == -3 {
            return "it is not plugged in (\(error.codeDescription))"
        }
        return error.description
    }
}
