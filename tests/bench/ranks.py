"""Order statistics of benchmark samples."""


def percentile(ranked, share):
    """The item at rank int(len x share) of a sorted, non-empty list (share 0..1; 1 gives
    the last): of 10 values the 10th percentile is the second, the 90th the last."""
    return ranked[min(len(ranked) - 1, int(len(ranked) * share))]
