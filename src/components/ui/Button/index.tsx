import type {ButtonHTMLAttributes, ReactNode, Ref} from 'react';
import Link from '@docusaurus/Link';
import clsx from 'clsx';
import styles from './styles.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'quiet';
export type ButtonSize = 'sm' | 'md' | 'lg';

interface CommonProps {
  /** primary: the one main action of a view; secondary: other actions; quiet: minor ones (copy, reset, show more). */
  readonly variant?: ButtonVariant;
  /** sm 14 px, md 15 px, lg 17 px text: every size is readable and at least 36 px tall. */
  readonly size?: ButtonSize;
  readonly className?: string;
  readonly children: ReactNode;
}

/** A link that looks like a button: `to` for a page of the site, `href` for anything else. */
interface LinkButtonProps extends CommonProps {
  readonly to?: string;
  readonly href?: string;
  readonly 'aria-label'?: string;
}

type NativeButtonProps = CommonProps &
  Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className' | 'children'> & {
    readonly to?: never;
    readonly href?: never;
    /** For moving focus to it (React 19 passes ref as a prop). */
    readonly ref?: Ref<HTMLButtonElement>;
  };

export type ButtonProps = LinkButtonProps | NativeButtonProps;

/** The class names of a button, for the rare element that cannot be this component (a <summary>, a label). */
export function buttonClassName({
  variant = 'secondary',
  size = 'md',
  className,
}: Pick<CommonProps, 'variant' | 'size' | 'className'> = {}): string {
  return clsx(styles.button, styles[variant], styles[size], className);
}

/**
 * The portal's one button. Renders a <button> (type="button" unless told otherwise) or, given `to` or
 * `href`, a link styled the same. Inherits the page's font; a disabled button looks inert, not pressable.
 */
export default function Button(props: ButtonProps): ReactNode {
  if (props.to !== undefined || props.href !== undefined) {
    const {variant, size, className, children, to, href} = props as LinkButtonProps;
    return (
      <Link
        className={buttonClassName({variant, size, className})}
        {...(to !== undefined ? {to} : {href})}
        aria-label={props['aria-label']}
      >
        {children}
      </Link>
    );
  }
  const {variant, size, className, children, type = 'button', ...rest} = props as NativeButtonProps;
  return (
    <button type={type} className={buttonClassName({variant, size, className})} {...rest}>
      {children}
    </button>
  );
}
