/**
 * The slot engine exactly as it was before the chain-scale rewrite, kept
 * verbatim (imports aside) as the oracle the property tests compare the
 * new engine with, and the baseline `npm run bench -- --scale` times in the
 * same run. Do not "fix" or speed up these files: they are the old behaviour.
 */
export { searchSlots } from "./search";
export { firstCartFitPerDay, nextCartFit, findCartStart, firstFitOn, prepare, place } from "./cart";
export { nearestStarts } from "./alternatives";
