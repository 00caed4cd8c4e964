import { Link, useLocation } from 'react-router';
import { Moment } from './When.tsx';
import { isDisabledForFailing, useWebhookEndpoints } from '../webhook-endpoints.ts';

/**
 * For Administrators, on every page: the webhook endpoints that were disabled after failing, so
 * that deliveries that stopped days ago are noticed. Nothing for others, and nothing on the
 * developer page, which shows the same at the endpoint itself.
 */
export function FailingWebhooksBanner() {
  const endpoints = useWebhookEndpoints({ secondary: true });
  const location = useLocation();
  const failing = (endpoints.data ?? []).filter(isDisabledForFailing);
  if (failing.length === 0 || location.pathname === '/developer') return null;
  const [first] = failing;
  return (
    <div className="banner" role="status">
      <p>
        <strong>Webhooks stopped.</strong>{' '}
        {failing.length === 1 && first !== undefined ? (
          <>
            The endpoint <code>{first.url}</code> was disabled on <Moment value={first.disabledAt} /> after every delivery failed since{' '}
            <Moment value={first.failingSince ?? first.disabledAt} />; no events are sent to it.
          </>
        ) : (
          <>{failing.length} webhook endpoints were disabled after every delivery to them kept failing; no events are sent to them.</>
        )}{' '}
        <Link to="/developer#webhooks">Fix and enable on the Developer page</Link>
      </p>
    </div>
  );
}
