import MicroHTTPD
import Testing

/// A streaming body's own rules, before any connection takes it.
@Suite struct StreamingBodyTests {
    @Test func overflowingTheBufferEndsTheStreamOnce() {
        let body = StreamingBody(bufferLimit: 10)
        let reports = Shared<[StreamingBody.Termination]>([])
        body.onTermination { termination in reports.update { $0.append(termination) } }
        #expect(body.write("12345") == .accepted)
        #expect(body.write("67890") == .accepted)
        #expect(body.write("!") == .terminated(.bufferLimitExceeded))
        #expect(body.write("again") == .terminated(.bufferLimitExceeded))
        body.finish()
        #expect(body.termination == .bufferLimitExceeded)
        #expect(reports.current == [.bufferLimitExceeded])
    }

    @Test func writesAfterFinishAreRefused() {
        let body = StreamingBody()
        #expect(body.write("data: 1\n\n") == .accepted)
        body.finish()
        #expect(body.write("data: 2\n\n") == .terminated(.finished))
        // Finishing only asks for the end; the stream ends when the server has sent it.
        #expect(body.termination == nil)
    }

    @Test func anActionSetAfterTheEndRunsAtOnce() {
        let body = StreamingBody(bufferLimit: 1)
        #expect(body.write("too long") == .terminated(.bufferLimitExceeded))
        let reports = Shared<[StreamingBody.Termination]>([])
        body.onTermination { termination in reports.update { $0.append(termination) } }
        #expect(reports.current == [.bufferLimitExceeded])
    }
}
