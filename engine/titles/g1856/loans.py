"""1856 family: which numbered loan each corporation holds (the ids 18xx.games' actions name).

18xx.games numbers the bank's loans 0..N-1 and its ``take_loan`` / ``payoff_loan`` actions carry
the id of the loan taken or repaid; an export without it cannot be read there.  The rules only
count loans (``Corporation.loans`` stays the count the rules use); this book keeps the ids in
step with the count so that our actions can be exported with the id 18xx.games' own interface
would send:

- the bank hands out the first loan it holds; a repaid loan goes back to the end of its list;
- a corporation repays its oldest loan when it chooses to repay, its newest ones when it is
  forced to (more loans than shares in players' hands, or the national's formation);
- a closing corporation's loans leave play (they never come back to the bank).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import NOT_OWNER, UNAVAILABLE, GameError


@dataclass
class LoanBook:
    free: list[int]
    held: dict[str, list[int]] = field(default_factory=dict)

    @classmethod
    def new(cls, count: int) -> LoanBook:
        return cls(free=list(range(count)))

    def of(self, sym: str) -> list[int]:
        return self.held.setdefault(sym, [])

    def take(self, sym: str, loan: int | None = None) -> int:
        """The loan ``sym`` takes: the one named (as a replayed action names it) or the bank's
        first."""
        if loan is None:
            if not self.free:
                raise GameError("The bank has no loan left", UNAVAILABLE)
            loan = self.free[0]
        if loan in self.of(sym):
            raise GameError(f"{sym} already holds loan {loan}", NOT_OWNER)
        if loan in self.free:
            self.free.remove(loan)
        self.of(sym).append(loan)
        return loan

    def repay(self, sym: str, loan: int | None = None) -> int:
        """A loan ``sym`` chooses to repay: the one named, or its oldest."""
        held = self.of(sym)
        if loan is None:
            if not held:
                raise GameError(f"{sym} has no loan to repay", NOT_OWNER)
            loan = held[0]
        if loan not in held:
            raise GameError(f"Loan {loan} does not belong to {sym}", NOT_OWNER)
        held.remove(loan)
        self.free.append(loan)
        return loan

    def repay_newest(self, sym: str, count: int) -> None:
        """``count`` loans repaid without a choice: the newest ones."""
        held = self.of(sym)
        if count <= 0:
            return
        back = held[-count:]
        del held[-count:]
        self.free.extend(back)

    def repay_all(self, sym: str) -> None:
        self.repay_newest(sym, len(self.of(sym)))

    def drop(self, sym: str) -> None:
        """A closed corporation's loans leave play."""
        self.held.pop(sym, None)
