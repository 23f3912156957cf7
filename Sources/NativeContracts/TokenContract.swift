import ABICoding
import EthereumTransactions
import EthereumTypes
import KeccakHashing

/// A native ERC-20 (EIP-20) token: the functions of its profile over its account's storage.
struct TokenContract {
    let token: TokenDefinition
    var profile: TokenProfile { token.profile }
    var layout: TokenStorageLayout { token.profile.layout }
    var address: Address { token.address }

    init(token: TokenDefinition) { self.token = token }

    // MARK: Selectors (EIP-20, EIP-2612, OpenZeppelin 4, WETH9)

    static let transfer = ABISignature(literal: "transfer(address,uint256)")
    static let transferFrom = ABISignature(literal: "transferFrom(address,address,uint256)")
    static let approve = ABISignature(literal: "approve(address,uint256)")
    static let balanceOf = ABISignature(literal: "balanceOf(address)")
    static let allowance = ABISignature(literal: "allowance(address,address)")
    static let totalSupply = ABISignature(literal: "totalSupply()")
    static let decimals = ABISignature(literal: "decimals()")
    static let symbol = ABISignature(literal: "symbol()")
    static let name = ABISignature(literal: "name()")
    static let permit = ABISignature(literal: "permit(address,address,uint256,uint256,uint8,bytes32,bytes32)")
    static let nonces = ABISignature(literal: "nonces(address)")
    static let domainSeparator = ABISignature(literal: "DOMAIN_SEPARATOR()")
    static let increaseAllowance = ABISignature(literal: "increaseAllowance(address,uint256)")
    static let decreaseAllowance = ABISignature(literal: "decreaseAllowance(address,uint256)")
    static let deposit = ABISignature(literal: "deposit()")
    static let withdraw = ABISignature(literal: "withdraw(uint256)")

    /// keccak256("Transfer(address,address,uint256)") and the other event topics.
    static let transferTopic = Keccak256.hash(utf8: "Transfer(address,address,uint256)")
    static let approvalTopic = Keccak256.hash(utf8: "Approval(address,address,uint256)")
    static let depositTopic = Keccak256.hash(utf8: "Deposit(address,uint256)")
    static let withdrawalTopic = Keccak256.hash(utf8: "Withdrawal(address,uint256)")
    static let permitTypeHash = Keccak256.hash(
        utf8: "Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)")
    static let domainTypeHash = Keccak256.hash(
        utf8: "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)")
    /// secp256k1's n / 2: signatures with a larger s are malleable copies (EIP-2), refused by OpenZeppelin's and
    /// Circle's ECDSA libraries.
    static let halfOrder = UInt256(
        limbs: (0xDFE9_2F46_681B_20A0, 0x5D57_6E73_57A4_501D, 0xFFFF_FFFF_FFFF_FFFF, 0x7FFF_FFFF_FFFF_FFFF))

    // MARK: Dispatch

    /// Runs `call` (already charged for nothing but its value) against the token.
    mutating func execute(_ call: NativeCall, in m: inout NativeMachine) throws(Halt) -> [UInt8] {
        let data = call.data
        if data.count < 4 {
            // WETH9's payable fallback deposits; other tokens have no fallback and no receive function.
            if profile == .weth9 { return try deposit(call, in: &m) }
            m.charge(profile.overhead(.unknown))
            throw .revert([])
        }
        let selector = ABI.selectorValue(data[0..<4])
        let payable = profile == .weth9 && selector == Self.deposit.selectorValue
        if !call.value.isZero && !payable && !(profile == .weth9 && !knows(selector)) {
            m.charge(profile.overhead(.unknown))
            throw .revert([])  // Solidity's callvalue check of a non-payable function
        }
        do {
            switch selector {
            case Self.transfer.selectorValue:
                m.charge(profile.overhead(.transfer))
                let a = try Self.arguments(Self.transfer, data)
                return try transfer(from: call.caller, to: a[0].addressValue, amount: a[1].uintValue, in: &m)
            case Self.transferFrom.selectorValue:
                m.charge(profile.overhead(.transferFrom))
                let a = try Self.arguments(Self.transferFrom, data)
                return try transferFrom(
                    spender: call.caller, from: a[0].addressValue, to: a[1].addressValue, amount: a[2].uintValue, in: &m
                )
            case Self.approve.selectorValue:
                m.charge(profile.overhead(.approve))
                let a = try Self.arguments(Self.approve, data)
                return try approve(owner: call.caller, spender: a[0].addressValue, amount: a[1].uintValue, in: &m)
            case Self.balanceOf.selectorValue:
                m.charge(profile.overhead(.balanceRead))
                let a = try Self.arguments(Self.balanceOf, data)
                return ABI.word(m.load(address, layout.balanceSlot(a[0].addressValue)))
            case Self.allowance.selectorValue:
                m.charge(profile.overhead(.balanceRead))
                let a = try Self.arguments(Self.allowance, data)
                let slot = layout.allowanceSlot(owner: a[0].addressValue, spender: a[1].addressValue)
                return ABI.word(m.load(address, slot))
            case Self.totalSupply.selectorValue:
                m.charge(profile.overhead(.totalSupply))
                return ABI.word(totalSupply(in: &m))
            case Self.decimals.selectorValue:
                m.charge(profile.overhead(.decimals))
                return ABI.word(UInt64(token.decimals))
            case Self.symbol.selectorValue:
                m.charge(profile.overhead(.metadata))
                return ABI.string(token.symbol)
            case Self.name.selectorValue:
                m.charge(profile.overhead(.metadata))
                return ABI.string(token.name)
            case Self.permit.selectorValue where profile.permitVersion != nil:
                m.charge(profile.overhead(.permit))
                return try permit(data, in: &m)
            case Self.nonces.selectorValue where profile.permitVersion != nil:
                m.charge(profile.overhead(.balanceRead))
                let a = try Self.arguments(Self.nonces, data)
                return ABI.word(m.load(address, layout.nonceSlot(a[0].addressValue)!))
            case Self.domainSeparator.selectorValue where profile.permitVersion != nil:
                m.charge(profile.overhead(.domainSeparator))
                return domainSeparator(chainID: m.environment.chainID)
            case Self.increaseAllowance.selectorValue where profile.hasAllowanceAdjustment:
                m.charge(profile.overhead(.adjustAllowance))
                let a = try Self.arguments(Self.increaseAllowance, data)
                return try adjustAllowance(
                    owner: call.caller, spender: a[0].addressValue, by: a[1].uintValue, up: true, in: &m)
            case Self.decreaseAllowance.selectorValue where profile.hasAllowanceAdjustment:
                m.charge(profile.overhead(.adjustAllowance))
                let a = try Self.arguments(Self.decreaseAllowance, data)
                return try adjustAllowance(
                    owner: call.caller, spender: a[0].addressValue, by: a[1].uintValue, up: false, in: &m)
            case Self.deposit.selectorValue where profile == .weth9:
                return try deposit(call, in: &m)
            case Self.withdraw.selectorValue where profile == .weth9:
                m.charge(profile.overhead(.withdraw))
                let a = try Self.arguments(Self.withdraw, data)
                return try withdraw(owner: call.caller, amount: a[0].uintValue, in: &m)
            default:
                if profile == .weth9 { return try deposit(call, in: &m) }
                m.charge(profile.overhead(.unknown))
                throw Halt.revert([])  // no such function and no fallback
            }
        } catch let halt as Halt {
            throw halt
        } catch {
            throw .revert([])  // calldata the ABI decoder refuses
        }
    }

    func knows(_ selector: UInt32) -> Bool {
        [
            Self.transfer, Self.transferFrom, Self.approve, Self.balanceOf, Self.allowance, Self.totalSupply,
            Self.decimals,
            Self.symbol, Self.name, Self.withdraw,
        ].contains { $0.selectorValue == selector }
    }

    /// The arguments after the selector, read as a Solidity contract's decoder (coder v2) reads them: calldata too
    /// short for the words, an address word with high bits set, a bool other than 0 or 1, or an offset or length
    /// pointing outside the data fail (the contract reverts without data); extra trailing bytes are accepted.
    static func arguments(_ function: ABISignature, _ data: [UInt8]) throws(ABIDecodingError) -> [ABIValue] {
        try function.decodeArguments(data, options: .solidity)
    }

    func fail(_ failure: TokenFailure) -> Halt { .revert(failure.revertData(profile)) }

    /// What `transfer`, `transferFrom` and `approve` return: true, or nothing for USDT.
    var success: [UInt8] { profile.returnsBool ? ABI.word(true) : [] }

    func totalSupply(in m: inout NativeMachine) -> UInt256 {
        if let slot = layout.totalSupply { return m.load(address, slot) }
        m.charge(GasModel.warmAccess)  // SELFBALANCE-like: the contract's own ETH balance
        return m.balance(address)
    }

    // MARK: Transfers

    mutating func transfer(from: Address, to: Address, amount: UInt256, in m: inout NativeMachine) throws(Halt)
        -> [UInt8]
    {
        switch profile {
        case .openZeppelin5, .openZeppelin4, .fiatToken:
            if to == .zero { throw fail(.invalidReceiver(.zero)) }
        case .weth9, .tether: break
        }
        try move(from: from, to: to, amount: amount, in: &m)
        return success
    }

    mutating func transferFrom(
        spender: Address, from: Address, to: Address, amount: UInt256, in m: inout NativeMachine
    ) throws(Halt) -> [UInt8] {
        let allowanceSlot = layout.allowanceSlot(owner: from, spender: spender)
        switch profile {
        case .openZeppelin5, .openZeppelin4:
            let allowance = m.load(address, allowanceSlot)
            if allowance != .max {
                if allowance < amount {
                    throw fail(.insufficientAllowance(spender: spender, allowance: allowance, needed: amount))
                }
                m.store(address, allowanceSlot, allowance - amount)
                if profile == .openZeppelin4 { emitApproval(owner: from, spender: spender, allowance - amount, in: &m) }
            }
            if from == .zero { throw fail(.invalidSender(.zero)) }
            if to == .zero { throw fail(.invalidReceiver(.zero)) }
            try move(from: from, to: to, amount: amount, in: &m)
        case .fiatToken:
            let allowance = m.load(address, allowanceSlot)
            if amount > allowance {
                throw fail(.insufficientAllowance(spender: spender, allowance: allowance, needed: amount))
            }
            if from == .zero { throw fail(.invalidSender(.zero)) }
            if to == .zero { throw fail(.invalidReceiver(.zero)) }
            try move(from: from, to: to, amount: amount, in: &m)
            m.store(address, allowanceSlot, m.load(address, allowanceSlot) - amount)
        case .weth9:
            let balance = m.load(address, layout.balanceSlot(from))
            if balance < amount { throw .revert([]) }
            if from != spender {
                let allowance = m.load(address, allowanceSlot)
                if allowance != .max {
                    if allowance < amount { throw .revert([]) }
                    m.store(address, allowanceSlot, allowance - amount)
                }
            }
            try move(from: from, to: to, amount: amount, in: &m)
        case .tether:
            let allowance = m.load(address, allowanceSlot)
            if allowance < .max {
                if allowance < amount { throw .invalid }  // SafeMath.sub's assert
                m.store(address, allowanceSlot, allowance - amount)
            }
            try move(from: from, to: to, amount: amount, in: &m)
        }
        return success
    }

    /// Debits `from`, credits `to`, emits `Transfer`: the balance check in the profile's words.
    func move(from: Address, to: Address, amount: UInt256, in m: inout NativeMachine) throws(Halt) {
        let fromSlot = layout.balanceSlot(from)
        let fromBalance = m.load(address, fromSlot)
        if fromBalance < amount {
            if profile == .tether { throw .invalid }
            throw fail(.insufficientBalance(holder: from, balance: fromBalance, needed: amount))
        }
        m.store(address, fromSlot, fromBalance - amount)
        let toSlot = layout.balanceSlot(to)
        let (credited, overflow) = m.load(address, toSlot).addingReportingOverflow(amount)
        if overflow {
            // OpenZeppelin 5 adds unchecked (the total supply bounds every balance); the others check.
            switch profile {
            case .openZeppelin5: break
            case .tether: throw .invalid
            case .weth9: break
            case .openZeppelin4, .fiatToken: throw fail(.overflow)
            }
        }
        m.store(address, toSlot, credited)
        m.emit(address, [Self.transferTopic, ABI.word(from), ABI.word(to)], ABI.word(amount))
    }

    // MARK: Allowances

    mutating func approve(owner: Address, spender: Address, amount: UInt256, in m: inout NativeMachine) throws(Halt)
        -> [UInt8]
    {
        let slot = layout.allowanceSlot(owner: owner, spender: spender)
        switch profile {
        case .openZeppelin5, .openZeppelin4, .fiatToken:
            if spender == .zero { throw fail(.invalidSpender(.zero)) }
        case .tether:
            if !amount.isZero && !m.load(address, slot).isZero { throw fail(.approveGuard) }
        case .weth9: break
        }
        m.store(address, slot, amount)
        emitApproval(owner: owner, spender: spender, amount, in: &m)
        return success
    }

    func emitApproval(owner: Address, spender: Address, _ amount: UInt256, in m: inout NativeMachine) {
        m.emit(address, [Self.approvalTopic, ABI.word(owner), ABI.word(spender)], ABI.word(amount))
    }

    mutating func adjustAllowance(
        owner: Address, spender: Address, by delta: UInt256, up: Bool, in m: inout NativeMachine
    ) throws(Halt) -> [UInt8] {
        let slot = layout.allowanceSlot(owner: owner, spender: spender)
        let current = m.load(address, slot)
        let updated: UInt256
        if up {
            let (sum, overflow) = current.addingReportingOverflow(delta)
            if overflow {
                if profile == .fiatToken { throw .revert(ABI.errorString("SafeMath: addition overflow")) }
                throw fail(.overflow)
            }
            updated = sum
        } else {
            if current < delta { throw fail(.decreasedBelowZero(allowance: current, decrease: delta)) }
            updated = current - delta
        }
        if spender == .zero { throw fail(.invalidSpender(.zero)) }
        m.store(address, slot, updated)
        emitApproval(owner: owner, spender: spender, updated, in: &m)
        return ABI.word(true)
    }

    // MARK: EIP-2612

    /// keccak256(abi.encode(EIP712Domain typehash, keccak256(name), keccak256(version), chainId, this)).
    func domainSeparator(chainID: UInt64) -> [UInt8] {
        Keccak256.hash(
            Self.domainTypeHash + Keccak256.hash(utf8: token.name) + Keccak256.hash(utf8: profile.permitVersion ?? "")
                + ABI.word(chainID) + ABI.word(address))
    }

    /// `permit(owner, spender, value, deadline, v, r, s)`: checks the deadline and the EIP-712 signature of
    /// `Permit(owner, spender, value, nonce, deadline)`, uses the nonce and sets the allowance.
    mutating func permit(_ data: [UInt8], in m: inout NativeMachine) throws(Halt) -> [UInt8] {
        let owner: Address
        let spender: Address
        let value: UInt256
        let deadline: UInt256
        let v: UInt8
        let r: UInt256
        let s: UInt256
        do {
            let a = try Self.arguments(Self.permit, data)
            owner = a[0].addressValue
            spender = a[1].addressValue
            value = a[2].uintValue
            deadline = a[3].uintValue
            v = a[4].uint8Value
            r = UInt256(bigEndian: a[5].bytesValue)!
            s = UInt256(bigEndian: a[6].bytesValue)!
        } catch {
            throw .revert([])
        }
        if UInt256(m.environment.timestamp) > deadline { throw fail(.expiredPermit(deadline: deadline)) }
        let nonceSlot = layout.nonceSlot(owner)!
        let nonce = m.load(address, nonceSlot)
        let structHash = Keccak256.hash(
            Self.permitTypeHash + ABI.word(owner) + ABI.word(spender) + ABI.word(value) + ABI.word(nonce)
                + ABI.word(deadline))
        let digest = Keccak256.hash([0x19, 0x01] + domainSeparator(chainID: m.environment.chainID) + structHash)
        if s > Self.halfOrder { throw fail(.invalidSignatureS(s)) }
        if profile == .fiatToken && v != 27 && v != 28 { throw fail(.invalidSignatureV) }
        m.charge(GasModel.ecrecover)
        guard v == 27 || v == 28,
            let signer = try? EthereumSignature(yParity: v - 27, r: r, s: s).recoverAddress(digest: digest)
        else { throw fail(.invalidSignature) }
        if signer != owner { throw fail(.invalidSigner(signer: signer, owner: owner)) }
        m.store(address, nonceSlot, nonce &+ 1)
        if spender == .zero { throw fail(.invalidSpender(.zero)) }
        m.store(address, layout.allowanceSlot(owner: owner, spender: spender), value)
        emitApproval(owner: owner, spender: spender, value, in: &m)
        return []
    }

    // MARK: WETH9

    mutating func deposit(_ call: NativeCall, in m: inout NativeMachine) throws(Halt) -> [UInt8] {
        m.charge(profile.overhead(.deposit))
        let slot = layout.balanceSlot(call.caller)
        let (sum, _) = m.load(address, slot).addingReportingOverflow(call.value)
        m.store(address, slot, sum)
        m.emit(address, [Self.depositTopic, ABI.word(call.caller)], ABI.word(call.value))
        return []
    }

    mutating func withdraw(owner: Address, amount: UInt256, in m: inout NativeMachine) throws(Halt) -> [UInt8] {
        let slot = layout.balanceSlot(owner)
        let balance = m.load(address, slot)
        if balance < amount { throw .revert([]) }
        m.store(address, slot, balance - amount)
        // msg.sender.transfer(wad): a CALL with value to the (warm) caller; a failed send reverts.
        m.access(owner)
        m.charge(GasModel.callValue - GasModel.callStipend)
        guard m.transfer(amount, from: address, to: owner) else { throw .revert([]) }
        m.emit(address, [Self.withdrawalTopic, ABI.word(owner)], ABI.word(amount))
        return []
    }
}

extension UInt256 {
    static func &+ (a: UInt256, b: UInt256) -> UInt256 { a.addingReportingOverflow(b).partialValue }
}
