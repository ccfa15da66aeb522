import type {ReactNode} from 'react';
import Head from '@docusaurus/Head';
import useIsBrowser from '@docusaurus/useIsBrowser';
import Layout from '@theme/Layout';

/** localStorage key the crash test sets to make this page throw. */
export const crashSwitchKey = 'portal-test-crash';

/**
 * Throws during render while the crash switch is on, so the test can check
 * the theme's error boundary ("This page crashed." and "Try again"), then turn
 * the switch off and check that "Try again" recovers. The switch is read only
 * in the browser after hydration, so server rendering never throws.
 */
function CrashOnDemand(): ReactNode {
  const isBrowser = useIsBrowser();
  if (isBrowser && window.localStorage.getItem(crashSwitchKey) === 'on') {
    throw new Error('Deliberate crash: the crash switch is on.');
  }
  return <p>The crash switch is off; this page renders normally.</p>;
}

export default function CrashOnDemandPage(): ReactNode {
  return (
    <Layout title="Crash test" description="Test-only page for the error boundary.">
      <Head>
        <meta name="robots" content="noindex, nofollow" />
      </Head>
      <main className="container margin-vert--lg">
        <h1>Crash test</h1>
        <CrashOnDemand />
      </main>
    </Layout>
  );
}
