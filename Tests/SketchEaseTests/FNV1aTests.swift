import SketchEase
import Testing

/// FNV-1a, 64 bits: the published test vectors, so stored fingerprints and shard choices stay
/// the same on every machine and version.
@Suite struct FNV1aTests {
    @Test func theHashOfBytesIsThePublishedOne() {
        #expect(FNV1a.of([UInt8]()) == 0xcbf2_9ce4_8422_2325)
        #expect(FNV1a.of("a".utf8) == 0xaf63_dc4c_8601_ec8c)
        #expect(FNV1a.of("foobar".utf8) == 0x8594_4171_f739_67e8)
    }

    @Test func elementsAddedOneByOneGiveTheSameHash() {
        var hash = FNV1a()
        for byte in "foobar".utf8 { hash.add(UInt64(byte)) }
        #expect(hash.value == FNV1a.of("foobar".utf8))
    }
}
