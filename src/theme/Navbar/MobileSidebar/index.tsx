import type {ReactNode} from 'react';
import NavbarMobileSidebar from '@theme-original/Navbar/MobileSidebar';
import {useNavbarMobileSidebar} from '@docusaurus/theme-common/internal';
import {useMobileMenuIntended} from '@site/src/hooks/useMobileMenuIntent';

/**
 * The theme renders the closed mobile menu, links and docs sidebar included,
 * right after hydration on every phone page. It is rendered here once the
 * reader heads for its toggle (see src/hooks/useMobileMenuIntent.ts), or opens it
 * by any other means, and stays rendered after that.
 */
export default function NavbarMobileSidebarWrapper(): ReactNode {
  const {shown} = useNavbarMobileSidebar();
  const intended = useMobileMenuIntended();
  return shown || intended ? <NavbarMobileSidebar /> : null;
}
