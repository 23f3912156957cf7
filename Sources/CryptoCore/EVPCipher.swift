import COpenSSL

/// One OpenSSL EVP cipher pass (init, update, final, no padding) for the AES modes: the call sequence AES-CBC and
/// AES-CTR share. Input is fed in chunks of at most 1 GiB, so no length overflows OpenSSL's `int`.
enum EVPCipher {
    static let chunk = 1 << 30

    static func run(
        _ cipher: OpaquePointer?, key: [UInt8], iv: [UInt8], encrypting: Bool, input: [UInt8]
    ) throws(OpenSSLError) -> [UInt8] {
        guard let ctx = EVP_CIPHER_CTX_new() else { throw OpenSSLError.drain("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        guard EVP_CipherInit_ex(ctx, cipher, nil, key, iv, encrypting ? 1 : 0) == 1 else {
            throw OpenSSLError.drain("EVP_CipherInit_ex")
        }
        guard EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 else { throw OpenSSLError.drain("EVP_CIPHER_CTX_set_padding") }
        var out = [UInt8](repeating: 0, count: input.count + 16)
        var total = 0
        let updated = input.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target -> Bool in
                var offset = 0
                while offset < source.count {
                    let length = min(chunk, source.count - offset)
                    var written: Int32 = 0
                    guard
                        EVP_CipherUpdate(
                            ctx, target.baseAddress! + total, &written, source.baseAddress! + offset, Int32(length))
                            == 1
                    else { return false }
                    total += Int(written)
                    offset += length
                }
                return true
            }
        }
        guard updated else { throw OpenSSLError.drain("EVP_CipherUpdate") }
        var written: Int32 = 0
        let finalOK = out.withUnsafeMutableBufferPointer { p in
            EVP_CipherFinal_ex(ctx, p.baseAddress! + total, &written)
        }
        guard finalOK == 1 else { throw OpenSSLError.drain("EVP_CipherFinal_ex") }
        total += Int(written)
        out.removeLast(out.count - total)
        return out
    }
}
