// The adapter registers itself with chart.js on import and exports nothing we use.
declare module "chartjs-adapter-date-fns";
