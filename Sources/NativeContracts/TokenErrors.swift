import ABICoding
import EthereumTypes

/// The revert data of a token failure, in the profile's style: OpenZeppelin 5's custom errors
/// (`draft-IERC6093.sol`), OpenZeppelin 4's and FiatToken's `Error(string)` texts, or nothing (WETH9, USDT).
enum TokenFailure {
    case insufficientBalance(holder: Address, balance: UInt256, needed: UInt256)
    case insufficientAllowance(spender: Address, allowance: UInt256, needed: UInt256)
    case invalidSender(Address)
    case invalidReceiver(Address)
    case invalidApprover(Address)
    case invalidSpender(Address)
    case decreasedBelowZero(allowance: UInt256, decrease: UInt256)
    case overflow
    case expiredPermit(deadline: UInt256)
    case invalidSignature
    case invalidSignatureS(UInt256)
    case invalidSignatureV
    case invalidSigner(signer: Address, owner: Address)
    /// USDT's guard against changing a non-zero allowance to another non-zero value.
    case approveGuard

    func revertData(_ profile: TokenProfile) -> [UInt8] {
        switch profile {
        case .openZeppelin5: return customError
        case .openZeppelin4: return ABI.errorString(openZeppelin4Reason)
        case .fiatToken: return fiatTokenReason.map(ABI.errorString) ?? ABI.panic(0x11)
        case .weth9, .tether: return []
        }
    }

    /// OpenZeppelin 5 (`IERC20Errors`, `ERC20Permit`, `ECDSA`); arithmetic overflow is `Panic(0x11)`.
    var customError: [UInt8] {
        switch self {
        case .insufficientBalance(let holder, let balance, let needed):
            return ABI.selector("ERC20InsufficientBalance(address,uint256,uint256)") + ABI.word(holder)
                + ABI.word(balance) + ABI.word(needed)
        case .insufficientAllowance(let spender, let allowance, let needed):
            return ABI.selector("ERC20InsufficientAllowance(address,uint256,uint256)") + ABI.word(spender)
                + ABI.word(allowance) + ABI.word(needed)
        case .invalidSender(let a): return ABI.selector("ERC20InvalidSender(address)") + ABI.word(a)
        case .invalidReceiver(let a): return ABI.selector("ERC20InvalidReceiver(address)") + ABI.word(a)
        case .invalidApprover(let a): return ABI.selector("ERC20InvalidApprover(address)") + ABI.word(a)
        case .invalidSpender(let a): return ABI.selector("ERC20InvalidSpender(address)") + ABI.word(a)
        case .decreasedBelowZero(let allowance, let decrease):
            return ABI.selector("ERC20FailedDecreaseAllowance(address,uint256,uint256)") + ABI.word(Address.zero)
                + ABI.word(allowance) + ABI.word(decrease)
        case .overflow: return ABI.panic(0x11)
        case .expiredPermit(let deadline): return ABI.selector("ERC2612ExpiredSignature(uint256)") + ABI.word(deadline)
        case .invalidSignature, .invalidSignatureV: return ABI.selector("ECDSAInvalidSignature()")
        case .invalidSignatureS(let s): return ABI.selector("ECDSAInvalidSignatureS(bytes32)") + ABI.word(s)
        case .invalidSigner(let signer, let owner):
            return ABI.selector("ERC2612InvalidSigner(address,address)") + ABI.word(signer) + ABI.word(owner)
        case .approveGuard: return []
        }
    }

    /// OpenZeppelin 4.9 `ERC20.sol`; checked arithmetic overflows panic.
    var openZeppelin4Reason: String {
        switch self {
        case .insufficientBalance: return "ERC20: transfer amount exceeds balance"
        case .insufficientAllowance: return "ERC20: insufficient allowance"
        case .invalidSender: return "ERC20: transfer from the zero address"
        case .invalidReceiver: return "ERC20: transfer to the zero address"
        case .invalidApprover: return "ERC20: approve from the zero address"
        case .invalidSpender: return "ERC20: approve to the zero address"
        case .decreasedBelowZero: return "ERC20: decreased allowance below zero"
        case .overflow, .expiredPermit, .invalidSignature, .invalidSignatureS, .invalidSignatureV, .invalidSigner,
            .approveGuard:
            return ""
        }
    }

    /// FiatToken v2.2 (`FiatTokenV1.sol`, `FiatTokenV2.sol`, `EIP2612.sol`, `ECRecover.sol`); nil for a
    /// checked-arithmetic panic.
    var fiatTokenReason: String? {
        switch self {
        case .insufficientBalance: return "ERC20: transfer amount exceeds balance"
        case .insufficientAllowance: return "ERC20: transfer amount exceeds allowance"
        case .invalidSender: return "ERC20: transfer from the zero address"
        case .invalidReceiver: return "ERC20: transfer to the zero address"
        case .invalidApprover: return "ERC20: approve from the zero address"
        case .invalidSpender: return "ERC20: approve to the zero address"
        case .decreasedBelowZero: return "ERC20: decreased allowance below zero"
        case .overflow: return nil
        case .expiredPermit: return "FiatTokenV2: permit is expired"
        case .invalidSignature: return "ECRecover: invalid signature"
        case .invalidSignatureS: return "ECRecover: invalid signature 's' value"
        case .invalidSignatureV: return "ECRecover: invalid signature 'v' value"
        case .invalidSigner: return "EIP2612: invalid signature"
        case .approveGuard: return nil
        }
    }
}
