import Foundation
import Testing
@testable import Feeds
import ModeS

struct JSONWriterTests {
    @Test func escapesStringsAndSkipsMissingValues() throws {
        var w = JSONWriter()
        w.add("a", "quote\" back\\ nl\n ctl\u{1}")
        w.add("b", nil as Int?)
        w.add("c", 3)
        w.add("d", Double.nan)
        w.add("e", [String]())
        let text = w.finish()
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        #expect(object["a"] as? String == "quote\" back\\ nl\n ctl\u{1}")
        #expect(object["b"] == nil)
        #expect(object["c"] as? Int == 3)
        #expect(object["d"] == nil)
        #expect((object["e"] as? [Any])?.isEmpty == true)
    }

    @Test func nonICAOAddressesGetATilde() {
        var f = FieldSet()
        f.address = 0x00ABCD
        f.addressType = .tisbOther
        #expect(f.hexKey == "~00abcd")
        f.addressType = .adsbICAO
        #expect(f.hexKey == "00abcd")
    }

    @Test func decodedJSONUsesTheContractKeys() throws {
        let message = try #require(ModeSMessage.decode(try Frame(hex: "8D4840D6202CC371C32CE0576098")))
        let object = try JSONSerialization.jsonObject(with: Data(message.fields.json.utf8)) as! [String: Any]
        #expect(object["hex"] as? String == "4840d6")
        #expect(object["df"] as? Int == 17)
        #expect(object["tc"] as? Int == 4)
        #expect(object["bds"] as? String == "0,8")
        #expect(object["flight"] as? String == "KLM1023")
        #expect(object["category"] as? String == "A0")
        #expect(object["crc"] as? String == "ok")
        #expect(object["ca"] as? Int == 5)
    }
}
