import EthereumTypes

/// How a token behaves: which functions it has, how it fails, where it keeps its state and what its functions
/// cost. Each profile follows a contract wallets meet on real chains.
public enum TokenProfile: String, Sendable, CaseIterable, Codable {
    /// OpenZeppelin Contracts 5 `ERC20` + `ERC20Permit`: custom errors (`ERC20InsufficientBalance(address,uint256,
    /// uint256)`, …), EIP-2612 permit (domain version "1"), no `increaseAllowance`; an infinite allowance is not
    /// spent; storage: balances slot 0, allowances 1, totalSupply 2, nonces 7.
    case openZeppelin5 = "openzeppelin5"
    /// OpenZeppelin Contracts 4 `ERC20`: `Error(string)` texts ("ERC20: transfer amount exceeds balance", …),
    /// `increaseAllowance`/`decreaseAllowance`, `transferFrom` emits `Approval`; no permit; slots 0, 1, 2.
    case openZeppelin4 = "openzeppelin4"
    /// Circle's FiatToken v2.2 (USDC) behind its proxy: `Error(string)` texts, EIP-2612 permit (domain version
    /// "2"), `increaseAllowance`/`decreaseAllowance`, every allowance (even the maximum) is spent; storage as the
    /// deployed contract: balances slot 9, allowances 10, totalSupply 11, permit nonces 17.
    case fiatToken = "fiattoken"
    /// WETH9: `deposit`/`withdraw` and a payable fallback that deposits, `Deposit`/`Withdrawal` events, failures
    /// revert without data, totalSupply is the contract's ETH balance; storage: balanceOf slot 3, allowance 4.
    case weth9 = "weth9"
    /// Tether USD (USDT, Solidity 0.4.17): `transfer`/`transferFrom`/`approve` return nothing; approving a
    /// non-zero allowance over a non-zero one reverts (without data); a balance or allowance too small fails on
    /// SafeMath's `assert` (INVALID: all the gas is consumed); storage: totalSupply slot 1, balances 2, allowed 5.
    case tether = "tether"

    /// Where the token keeps its state (Solidity layout: mapping entries at keccak256(pad32(key) ‖ pad32(slot))).
    public var layout: TokenStorageLayout {
        switch self {
        case .openZeppelin5: return TokenStorageLayout(balances: 0, allowances: 1, totalSupply: 2, nonces: 7)
        case .openZeppelin4: return TokenStorageLayout(balances: 0, allowances: 1, totalSupply: 2, nonces: nil)
        case .fiatToken: return TokenStorageLayout(balances: 9, allowances: 10, totalSupply: 11, nonces: 17)
        case .weth9: return TokenStorageLayout(balances: 3, allowances: 4, totalSupply: nil, nonces: nil)
        case .tether: return TokenStorageLayout(balances: 2, allowances: 5, totalSupply: 1, nonces: nil)
        }
    }

    /// EIP-2612 `permit`, `nonces` and `DOMAIN_SEPARATOR`, with the EIP-712 domain version.
    public var permitVersion: String? {
        switch self {
        case .openZeppelin5: return "1"
        case .fiatToken: return "2"
        case .openZeppelin4, .weth9, .tether: return nil
        }
    }

    public var hasAllowanceAdjustment: Bool { self == .openZeppelin4 || self == .fiatToken }

    /// `transfer`, `transferFrom` and `approve` return a bool (USDT's return nothing).
    public var returnsBool: Bool { self != .tether }

    /// Functions of the gas model with a profile overhead.
    public enum Function: Sendable, CaseIterable {
        case transfer, transferFrom, approve, adjustAllowance, permit, deposit, withdraw
        case balanceRead, metadata, decimals, totalSupply, domainSeparator, unknown
    }

    /// Gas of `function` beyond what ``GasModel`` counts (storage words, logs, ETH calls, ecrecover).
    public func overhead(_ function: Function) -> UInt64 {
        switch self {
        case .openZeppelin5, .openZeppelin4: return Self.standard(function)
        case .fiatToken:
            // The proxy's DELEGATECALL (cold account 2,600 + implementation slot 2,100 + copying ≈ 700), and for
            // state changes the `paused` read (2,100) and the extra blacklist checks.
            let proxy: UInt64 = 5_400
            switch function {
            case .transfer, .transferFrom, .approve, .adjustAllowance, .permit:
                return Self.standard(function) + proxy + 2_100
            default: return Self.standard(function) + proxy
            }
        case .weth9:
            switch function {
            case .transfer: return 1_100
            case .transferFrom: return 1_300
            case .approve: return 900
            case .deposit: return 500
            case .withdraw: return 700
            case .balanceRead: return 600
            case .metadata: return 2_900
            case .decimals: return 2_400
            case .totalSupply: return 300
            case .adjustAllowance, .permit, .domainSeparator, .unknown: return 200
            }
        case .tether:
            // `deprecated` (2,100), `isBlackListed[sender]` (2,100), `basisPointsRate` and `maximumFee` (2 × 2,100)
            // and the fee arithmetic: calibrated to USDT's measured 46,109 (see GasModel).
            switch function {
            case .transfer: return 12_757
            case .transferFrom: return 14_900
            case .approve: return 5_200
            case .balanceRead, .totalSupply: return 2_800
            case .metadata: return 2_900
            case .decimals: return 2_400
            case .adjustAllowance, .permit, .deposit, .withdraw, .domainSeparator, .unknown: return 200
            }
        }
    }

    /// An OpenZeppelin-style token after Berlin and London: the opcodes around the storage words.
    static func standard(_ function: Function) -> UInt64 {
        switch function {
        case .transfer: return 1_550
        case .transferFrom: return 2_400
        case .approve: return 1_250
        case .adjustAllowance: return 1_450
        case .permit: return 4_500
        case .deposit, .withdraw, .unknown: return 150
        case .balanceRead: return 650
        case .metadata: return 3_300
        case .decimals: return 250
        case .totalSupply: return 300
        case .domainSeparator: return 400
        }
    }

    /// The code marker `eth_getCode` returns for a token of this profile.
    public var codeMarker: [UInt8] {
        NativeCode.marker(self == .weth9 ? "WETH9" : "ERC20")
    }
}

/// Where a token's state lives in its account's storage.
public struct TokenStorageLayout: Sendable, Equatable {
    /// `mapping(address => uint256)` of balances.
    public var balances: UInt256
    /// `mapping(address => mapping(address => uint256))` of allowances (owner, then spender).
    public var allowances: UInt256
    /// The total supply's slot; nil when the total supply is the contract's ETH balance (WETH9).
    public var totalSupply: UInt256?
    /// `mapping(address => uint256)` of EIP-2612 nonces.
    public var nonces: UInt256?

    public init(balances: UInt256, allowances: UInt256, totalSupply: UInt256?, nonces: UInt256?) {
        self.balances = balances
        self.allowances = allowances
        self.totalSupply = totalSupply
        self.nonces = nonces
    }

    public func balanceSlot(_ holder: Address) -> UInt256 { SolidityStorage.mappingSlot(holder, balances) }

    public func allowanceSlot(owner: Address, spender: Address) -> UInt256 {
        SolidityStorage.mappingSlot(spender, SolidityStorage.mappingSlot(owner, allowances))
    }

    public func nonceSlot(_ owner: Address) -> UInt256? { nonces.map { SolidityStorage.mappingSlot(owner, $0) } }
}
