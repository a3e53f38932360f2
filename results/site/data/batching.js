window.CHBENCH_PAGE = {"question":"batching","charts":[]};
