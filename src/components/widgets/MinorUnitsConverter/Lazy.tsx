import lazyWidget from '@site/src/components/ui/LazyWidget';

/** The converter in its own chunk, loaded when a page renders it. */
const LazyMinorUnitsConverter = lazyWidget(
  () => import(/* webpackChunkName: "minor-units-converter" */ '@site/src/components/widgets/MinorUnitsConverter'),
);

export default LazyMinorUnitsConverter;
