#if canImport(Glibc)
import Glibc
#endif
import BrokerSupport
import Testing

@Suite struct FileDescriptorLimitTests {
    @Test func theSoftLimitIsRaisedToTheHardLimit() {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var before = rlimit()
        #expect(getrlimit(resource, &before) == 0)
        let reported = FileDescriptorLimit.raiseToHardLimit()
        var after = rlimit()
        #expect(getrlimit(resource, &after) == 0)
        #expect(UInt64(after.rlim_cur) == reported)
        #expect(after.rlim_cur == before.rlim_max)
        #expect(after.rlim_cur >= before.rlim_cur)
    }
}
