// Package seal seals the register in Sigstore Rekor and verifies seals
// offline: operator keys, the signed checkpoint, the incremental Merkle tree
// (compact range) over entry hashes, the Rekor upload and the checks that
// Rekor's own verify package leaves to the caller.
//
// Nothing here is imported by the hook: it pulls in the Rekor client.
package seal
