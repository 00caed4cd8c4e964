import { Link } from 'react-router';
import { LedgerReconError } from '@ledger-recon/sdk';

/**
 * Whether a reconciliation asked for by the address is not there: an address cut short or mistyped
 * (not an id at all) or one of a reconciliation deleted since.
 */
export function isMissingReconciliation(error: unknown): boolean {
  return error instanceof LedgerReconError && (error.code === 404 || error.code === 400);
}

/** What the close screens show in place of a reconciliation the address names but that is not there, with the way back. */
export function ReconciliationMissing() {
  return (
    <section className="card" aria-labelledby="reconciliation-missing-title">
      <h1 id="reconciliation-missing-title">This reconciliation cannot be found</h1>
      <p>
        The address may be incomplete or mistyped, or the reconciliation was deleted. Every reconciliation of your organization is listed on the Month-end close
        page.
      </p>
      <p>
        <Link to="/close">Back to Month-end close</Link>
      </p>
    </section>
  );
}
