import type {ComponentType, ReactNode} from 'react';
import Loadable, {type LoadingComponentProps} from 'react-loadable';
import Loading from '@theme/Loading';
import styles from './styles.module.css';

/**
 * Shows a compact notice while the widget's chunk loads, instead of the
 * theme's full-screen spinner, and hands failures to the theme's Loading
 * component so a chunk that fails to load shows its error and a Retry button,
 * exactly as a failed page chunk does.
 */
function WidgetLoading(props: LoadingComponentProps): ReactNode {
  if (props.error) {
    return <Loading {...props} />;
  }
  return props.pastDelay ? (
    <p className={styles.loading} role="status">
      Loading the interactive example…
    </p>
  ) : null;
}

/**
 * Wraps an interactive widget (converters today; the "Try it" panel, the
 * signature debugger and the notification simulator later) in its own chunk,
 * so pages that don't use it don't pay for its JavaScript.
 */
export default function lazyWidget<Props extends object>(
  loader: () => Promise<{default: ComponentType<Props>}>,
): ComponentType<Props> {
  return Loadable({loader, loading: WidgetLoading});
}
