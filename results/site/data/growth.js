window.CHBENCH_PAGE = {"question":"growth","charts":[]};
