"""The one seam between games and searches (DESIGN.md, "One source"; framework/SEARCH_DESIGN.md).

- `api`: the contract: the primitives a game's kernel provides (stubs), the functions derived from them,
  the outcome codes (WIN, LOSS, DRAW, ONGOING; CHANCE), the helpers that read the same compiled and
  interpreted, and `GameKernel`, what a game offers;
- `numba_backend`: every touch of numba: `Kernel` compiles a rules module, or a search over a game's rules,
  from the module's own code objects;
- `python_backend`: the same code objects run as Python, folded as numba folds them;
- `adapter`: any plain-Python game behind the contract (`KernelAdapter`, `PassThroughAdapter`);
- `binding`: `bind(search, game, heuristic, kernel)`, the one way a search gets its functions: compiled,
  interpreted or through an adapter, chosen openly and recorded.

Importing this package imports no numba (it is loaded on a first compile).
"""
