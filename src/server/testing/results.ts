// Other features' tests check that their writes keep the results counters equal to a recount.
export { checkTotals } from '#server/features/results/results.service';
