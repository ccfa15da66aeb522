import type {ComponentProps, ReactNode} from 'react';
import type OriginalSearchBar from '@theme-original/SearchBar';
import SearchBarOnDemand from '@portal/search-bar';

/** The search plugin's search bar, its code loaded on demand in the browser (plugins/performance/search-on-demand). */
export default function SearchBar(props: ComponentProps<typeof OriginalSearchBar>): ReactNode {
  return <SearchBarOnDemand {...props} />;
}
